// #region governed-server
import {
  audit,
  createServer,
  defineTool,
  type KitServer,
  type Middleware,
  rateLimit,
  refuse,
  type TimingMiddleware,
  timing,
} from '@mcpkit/server-kit';
import { z } from 'zod';
import { greet } from './tools/greet.js';

/** A middleware of one's own: refuses every tool call while `paused()` says so, and lets everything else through. */
export function pauseTools(paused: () => boolean): Middleware {
  return (request, next) =>
    request.method === 'tools/call' && paused()
      ? refuse(request, 'The server is paused for maintenance; try again in a few minutes.')
      : next();
}

/** `send_invite`: a tool with a secret argument and its own, stricter rate limit. */
const sendInvite = defineTool({
  name: 'send_invite',
  description: 'Sends an invitation e-mail.',
  input: z.object({
    email: z.string().email(),
    // writeOnly: the audit log writes "[redacted]" instead of the value.
    inviteCode: z.string().meta({ writeOnly: true }).describe('The one-time code to put in the e-mail'),
  }),
  middleware: [rateLimit({ limit: 3, intervalMs: 60_000, per: 'caller' })],
  handler: ({ email }) => `Invitation sent to ${email}.`,
});

/** A greeting server behind an audit log, a rate limit, timing and a pause switch. */
export function createGovernedServer(options: { auditLine(line: string): void; paused(): boolean }): {
  server: KitServer;
  timer: TimingMiddleware;
} {
  const timer = timing();
  const server = createServer({
    name: 'governed-hello',
    version: '0.1.0',
    tools: [greet('Hello'), sendInvite],
    // The first is the outermost: the audit line records what the rate limit and the pause answered too.
    middleware: [
      audit({ sink: options.auditLine }),
      rateLimit({ limit: 20, intervalMs: 1000 }),
      timer,
      pauseTools(options.paused),
    ],
  });
  return { server, timer };
}
// #endregion governed-server
