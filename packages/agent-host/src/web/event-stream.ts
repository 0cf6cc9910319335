import type { ServerResponse } from 'node:http';
import type { PageMessage } from './protocol.js';

/** Most messages kept for pages that connect later (a reload shows the session so far). */
const historyLimit = 5000;

/**
 * Sends the session's messages to every open page as Server-Sent Events, and replays what was said to a page that
 * connects later, so that reloading the page loses nothing.
 */
export class EventStream {
  private readonly clients = new Set<ServerResponse>();
  private readonly history: string[] = [];
  private readonly heartbeat: NodeJS.Timeout;

  constructor() {
    // A comment line now and then keeps proxies and idle timers from closing a quiet stream.
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) client.write(': keep-alive\n\n');
    }, 15_000);
    this.heartbeat.unref();
  }

  /** Sends a message to every page and keeps it for pages that connect later (unless `replay` is false). */
  send(message: PageMessage, replay = true): void {
    const frame = `data: ${JSON.stringify(message)}\n\n`;
    if (replay) {
      this.history.push(frame);
      if (this.history.length > historyLimit) this.history.splice(0, this.history.length - historyLimit);
    }
    for (const client of this.clients) client.write(frame);
  }

  /** Opens a stream on a response: the history first, then every new message, until the page goes away. */
  attach(response: ServerResponse, first: PageMessage[]): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    for (const message of first) response.write(`data: ${JSON.stringify(message)}\n\n`);
    for (const frame of this.history) response.write(frame);
    this.clients.add(response);
    response.on('close', () => this.clients.delete(response));
  }

  /** Ends every stream. */
  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.end();
    this.clients.clear();
  }
}
