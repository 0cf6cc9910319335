/** The repository's git-ignored tools folder (MCPKIT_TOOLS_DIR overrides it). */
export declare const toolsDirectory: string;
/** Returns the absolute path of a Node 22 binary, installing the `node` npm package into .tools/node22 if needed. */
export declare function ensureNode22(): string;
/** Installs an npm package at an exact version into .tools (once); returns its folder and its bin entry files. */
export declare function ensureNpmTool(spec: string): { dir: string; bins: Record<string, string> };
/** `environment` (default process.env) with 127.0.0.1, localhost and ::1 added to NO_PROXY and no_proxy. */
export declare function localToolEnvironment(environment?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
