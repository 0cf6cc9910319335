import type { PageAnswer } from '../protocol.js';

/** The run's token, from the address mcpkit-host web printed. */
export const token = new URLSearchParams(location.search).get('token') ?? '';

/** Posts JSON to the host; resolves with whether it was taken. */
export async function post(path: string, body: unknown = {}): Promise<boolean> {
  return (await postForError(path, body)) === undefined;
}

/** Sends the person's answer to a question. */
export function answer(value: PageAnswer): Promise<boolean> {
  return post('/api/answer', value);
}

/** Opens the host's event stream. */
export function events(): EventSource {
  return new EventSource(`/events?token=${encodeURIComponent(token)}`);
}

/** Posts JSON and resolves with the host's error sentence, or undefined when it was taken. */
export async function postForError(path: string, body: unknown): Promise<string | undefined> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-mcpkit-token': token },
    body: JSON.stringify(body),
  });
  if (response.ok) return undefined;
  const answer = (await response.json().catch(() => ({}))) as { error?: string };
  return answer.error ?? `The host answered ${response.status}.`;
}
