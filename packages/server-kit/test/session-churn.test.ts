import { afterEach, expect, it } from 'vitest';
import { z } from 'zod';
import { createServer, defineTool, type HttpListening, serveHttp } from '../src/index.js';
import { initializeBody, jsonRpcHeaders, messagesOf, rawRequest } from './support/http-request.js';

const slow = defineTool({
  name: 'slow',
  description: 'Answers after a moment, as a real call does.',
  input: z.object({ ms: z.number() }),
  handler: ({ ms }) => new Promise<string>((resolve) => setTimeout(() => resolve('done'), ms)),
});

let listening: HttpListening | undefined;
afterEach(async () => {
  await listening?.close();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('under churn at 1.3x the session cap, no call loses its session; refused clients get 503 and get in on retry', async () => {
  const server = createServer({ name: 'churn', version: '1', tools: [slow], logLevel: 'emergency' });
  listening = await serveHttp(server, { port: 0, maxSessions: 20 });
  const url = listening.url;
  const refusals: { status: number; retryAfter: unknown }[] = [];
  const failures: string[] = [];

  // Every client's first initialize is sent before any client goes on, so 26 arrive while 20 places exist however
  // the machine schedules the clients: the refusals below cannot be skipped by clients that happen not to overlap.
  const clients = 26;
  let firstAttempts = 0;
  let allTried: () => void = () => {};
  const allFirstAttemptsDone = new Promise<void>((resolve) => {
    allTried = resolve;
  });

  const client = async (index: number) => {
    let sessionId: string | undefined;
    for (let attempt = 0; sessionId === undefined && attempt < 100; attempt++) {
      const initialized = await rawRequest(url, { headers: jsonRpcHeaders, body: initializeBody });
      if (attempt === 0) {
        if (++firstAttempts === clients) allTried();
        await allFirstAttemptsDone;
      }
      if (initialized.status === 200) sessionId = initialized.headers['mcp-session-id'] as string;
      else {
        refusals.push({ status: initialized.status, retryAfter: initialized.headers['retry-after'] });
        await pause(50); // Retry-After says 1 s; a test need not wait that long
      }
    }
    if (sessionId === undefined) throw new Error(`client ${index} never got a session`);
    const headers = { ...jsonRpcHeaders, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
    const initializedNotice = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await rawRequest(url, { headers, body: initializedNotice });
    for (let call = 0; call < 2; call++) {
      await pause(20); // the gap between a client's requests, when its session looks idle
      const answer = await rawRequest(url, {
        headers,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: call + 2,
          method: 'tools/call',
          params: { name: 'slow', arguments: { ms: 400 } },
        }),
      });
      if (answer.status !== 200) failures.push(`${answer.status} ${answer.body}`);
      else expect(messagesOf(answer.body).at(-1)).toMatchObject({ result: { content: [{ text: 'done' }] } });
    }
    const deleted = await rawRequest(url, { method: 'DELETE', headers });
    if (deleted.status !== 200) failures.push(`DELETE ${deleted.status} ${deleted.body}`);
  };

  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  expect(failures).toEqual([]);
  expect(refusals.length).toBeGreaterThan(0);
  for (const refusal of refusals) expect(refusal).toEqual({ status: 503, retryAfter: '1' });
  await expect.poll(() => listening?.sessionCount).toBe(0);
});
