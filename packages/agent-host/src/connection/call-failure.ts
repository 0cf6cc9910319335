import { ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { errorMessage } from '../errors.js';
import { signInRequired } from './oauth/connection-authorization.js';
import type { CallToolResult } from './types.js';

/** An error result the model can read, for a call that never got a real one. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Whether a call failed because the tool runs only as a task (the tasks extension): the server says it "requires
 * task-based execution" (-32600) or "requires task augmentation" (the SDK's servers, -32601), or the SDK client
 * refuses to send the call for a tool listed with `execution.taskSupport: "required"`.
 */
function needsTasks(error: unknown): boolean {
  return (
    ((error instanceof ProtocolError &&
      (error.code === ProtocolErrorCode.InvalidRequest || error.code === ProtocolErrorCode.MethodNotFound)) ||
      error instanceof SdkError) &&
    /requires task[- ](based execution|augmentation)/.test(error.message)
  );
}

// Socket failures of a request sent on a connection the server had already closed (a kept-alive socket to a server
// that restarted) or could not open: the request never reached a running server.
const droppedConnectionCodes = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE']);

/** Whether a request failed because its HTTP connection was gone, not because the server answered. */
export function connectionDropped(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && droppedConnectionCodes.has(cause.code);
}

/** The error result saying why a tool call failed, for a failure the connection could not mend. */
export function callFailureResult(
  error: unknown,
  call: { server: string; tool: string; timeoutMs: number },
): CallToolResult {
  const { server, tool, timeoutMs } = call;
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    return errorResult(`Tool "${tool}" of server "${server}" did not answer within ${timeoutMs} ms.`);
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed) {
    return errorResult(`Server "${server}" stopped during the call to tool "${tool}".`);
  }
  const signIn = signInRequired(error);
  if (signIn) {
    return errorResult(
      `Tool "${tool}" of server "${server}" was not called: ${signIn.message} (mcpkit-host auth login ${server}).`,
    );
  }
  if (needsTasks(error)) {
    return errorResult(
      `Tool "${tool}" of server "${server}" needs the tasks extension, which mcpkit-host does not support yet.`,
    );
  }
  return errorResult(`Tool "${tool}" of server "${server}" failed: ${errorMessage(error)}`);
}
