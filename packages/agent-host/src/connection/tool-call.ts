import type { Client } from '@modelcontextprotocol/client';
import { errorResult } from './call-failure.js';
import type { OpenQuestions } from './open-questions.js';
import { SilenceTimer } from './silence-timer.js';
import type { CallToolResult } from './types.js';

/** A progress notification of a tool call. */
export interface ToolProgress {
  /** How much is done; grows with each notification. */
  progress: number;
  /** How much there is in all, when the server knows. */
  total?: number;
  message?: string;
}

/** Options of one tool call. */
export interface CallOptions {
  /** Aborting sends `notifications/cancelled` to the server and ends the call with an error result. */
  signal?: AbortSignal;
  /**
   * Overrides the server's configured call timeout: the longest silence, since each progress notification resets it
   * (and the time a person takes to answer the server's form or sampling request does not count).
   */
  timeoutMs?: number;
  /** The longest a call may take however much progress it reports (default 10 times the timeout). */
  maxTotalTimeoutMs?: number;
  /** Receives the call's progress notifications (every call asks for them with a progress token). */
  onProgress?(progress: ToolProgress): void;
}

/** How many call timeouts a call that keeps reporting progress may last in all, by default. */
export const defaultTotalTimeoutFactor = 10;

/** One call of a tool of a server, with the arguments the model gave. */
export interface ToolCallRequest {
  server: string;
  tool: string;
  arguments: Record<string, unknown>;
}

/**
 * Sends one `tools/call` under the host's two limits: `timeoutMs` of silence (reset by progress, paused while the
 * server has a question open to the user) and the total (`maxTotalTimeoutMs`). Resolves with the tool's result, or
 * with an error result when the caller cancelled or a limit was reached; any other failure rejects with the SDK's
 * error, for the connection to judge (a lost session, a dropped socket) and describe.
 */
export async function callWithinLimits(
  client: Client,
  call: ToolCallRequest,
  options: CallOptions,
  limits: { timeoutMs: number; questions: OpenQuestions },
): Promise<CallToolResult> {
  const { server, tool } = call;
  const timeout = limits.timeoutMs;
  const totalTimeout = options.maxTotalTimeoutMs ?? timeout * defaultTotalTimeoutFactor;
  // Both limits abort the call's own signal, so that reaching one also tells the server to stop (the SDK's
  // maxTotalTimeout is checked only when progress arrives, and does not send notifications/cancelled). The
  // silence limit is the host's own rather than the SDK's request timeout, so that the time a person takes to
  // answer the server's question (a form, a sampling request) never counts. The caller's signal aborts it too.
  const stop = new AbortController();
  let limit: 'silence' | 'total' | undefined;
  const totalTimer = setTimeout(() => {
    limit ??= 'total';
    stop.abort();
  }, totalTimeout);
  const silence = new SilenceTimer(
    timeout,
    () => {
      limit ??= 'silence';
      stop.abort();
    },
    () => limits.questions.open,
  );
  limits.questions.watch(silence);
  const abortCall = () => stop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', abortCall, { once: true });
  const onProgress = options.onProgress;
  try {
    const result = await client.callTool(
      { name: tool, arguments: call.arguments },
      {
        // Past both of the host's limits: the SDK's own timeout never decides.
        timeout: totalTimeout + 1000,
        signal: stop.signal,
        // Given always, so that every call carries a progress token.
        onprogress: (progress) => {
          silence.reset();
          onProgress?.({
            progress: progress.progress,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
            ...(progress.message !== undefined ? { message: progress.message } : {}),
          });
        },
      },
    );
    return result as CallToolResult;
  } catch (error) {
    if (options.signal?.aborted) return errorResult(`The call to tool "${tool}" was cancelled.`);
    if (limit === 'silence') {
      return errorResult(`Tool "${tool}" of server "${server}" did not answer within ${timeout} ms.`);
    }
    if (limit === 'total') {
      return errorResult(
        `Tool "${tool}" of server "${server}" did not finish within ${totalTimeout} ms in all, though it reported progress.`,
      );
    }
    throw error;
  } finally {
    clearTimeout(totalTimer);
    silence.clear();
    limits.questions.forget(silence);
    options.signal?.removeEventListener('abort', abortCall);
  }
}
