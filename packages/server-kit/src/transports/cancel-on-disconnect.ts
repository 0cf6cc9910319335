import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/server';

/** The ids of the JSON-RPC requests in a POST body (one message or a batch). */
function requestIds(body: unknown): (string | number)[] {
  const messages = Array.isArray(body) ? body : [body];
  const ids: (string | number)[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/**
 * Cancels the requests of one POST when its connection closes before the answer has been sent, as the client would
 * with `notifications/cancelled`: their handlers see `signal` abort at once instead of running to their deadline for
 * an answer no one will read. (A closed session aborts its handlers already; a session outlives its requests.)
 */
export function cancelOnDisconnect(transport: Transport, response: ServerResponse, body: unknown): void {
  const ids = requestIds(body);
  if (ids.length === 0) return;
  response.once('close', () => {
    if (response.writableFinished) return;
    for (const requestId of ids) {
      transport.onmessage?.({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId, reason: 'The client disconnected before the answer was sent.' },
      });
    }
  });
}
