/** One server-sent event. */
export interface ServerSentEvent {
  /** The `event:` field, when there was one. */
  event?: string;
  data: string;
}

/** Reads server-sent events from a byte stream (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export async function* readServerSentEvents(
  body: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event: string | undefined;
  let data: string[] = [];
  const dispatch = function* (): Generator<ServerSentEvent> {
    if (data.length > 0) yield { ...(event !== undefined ? { event } : {}), data: data.join('\n') };
    event = undefined;
    data = [];
  };
  for await (const chunk of body) {
    buffer += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).replace(/\r$/, '');
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
      if (line === '') {
        yield* dispatch();
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }
  // The spec discards an event the stream ended in the middle of.
}
