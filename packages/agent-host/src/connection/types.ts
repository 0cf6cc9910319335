// The protocol shapes the rest of the host works with. They are the SDK's types, re-exported from the connection
// module so that no other module imports the SDK (a move to a newer SDK line then touches this folder only).
export type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';

/** Writes one line of a server's stderr (or a note about it) somewhere a person can read it. */
export type ServerLogSink = (server: string, line: string) => void;

/** Sends each line to the host's stderr, prefixed with the server's name. */
export const stderrLogSink: ServerLogSink = (server, line) => {
  process.stderr.write(`[${server}] ${line}\n`);
};
