import type { ToolContext } from '@mcpkit/server-kit';

/**
 * The gateway's calls in flight per backend, so that a backend's question (elicitation, sampling) goes to the client
 * whose call made the backend ask. The host library does not say which call a question belongs to; the newest call in
 * flight to that backend is taken, which is exact whenever a backend has one call in flight.
 */
export class OpenCalls {
  private readonly byServer = new Map<string, ToolContext[]>();

  /** Runs `work` as a call to `server` made for the client behind `context`. */
  async during<T>(server: string, context: ToolContext, work: () => Promise<T>): Promise<T> {
    let open = this.byServer.get(server);
    if (open === undefined) {
      open = [];
      this.byServer.set(server, open);
    }
    open.push(context);
    try {
      return await work();
    } finally {
      open.splice(open.indexOf(context), 1);
      if (open.length === 0) this.byServer.delete(server);
    }
  }

  /** The context of the newest call in flight to `server`, if any. */
  newest(server: string): ToolContext | undefined {
    return this.byServer.get(server)?.at(-1);
  }
}
