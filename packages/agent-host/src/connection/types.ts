// The protocol shapes the rest of the host works with. They are the SDK's types, re-exported from the connection
// module so that no other module imports the SDK (a move to a newer SDK line then touches this folder only).
export type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client';

/**
 * The protocol a connection speaks: the revision it negotiated, its era (`modern` is the stateless 2026-07-28 line
 * found by `server/discover`, `legacy` the 2025-11-25 `initialize` handshake) and the transport under it.
 */
export interface NegotiatedProtocol {
  era: 'modern' | 'legacy';
  /** The protocol revision, such as `2026-07-28` or `2025-11-25`. */
  version: string;
  transport: 'stdio' | 'streamable-http' | 'sse';
}

/** Writes one line of a server's stderr (or a note about it) somewhere a person can read it. */
export type ServerLogSink = (server: string, line: string) => void;

/** Sends each line to the host's stderr, prefixed with the server's name. */
export const stderrLogSink: ServerLogSink = (server, line) => {
  process.stderr.write(`[${server}] ${line}\n`);
};
