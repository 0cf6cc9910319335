/**
 * A JSON-RPC error answer: its code and one sentence. The SDK's McpError writes "MCP error <code>: " into its message,
 * and the client's McpError adds the same prefix again, so a user would read "MCP error -32602: MCP error -32602: ...";
 * the SDK answers with any thrown error's `code` and `message`, so this one carries the sentence alone.
 */
export class RequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}
