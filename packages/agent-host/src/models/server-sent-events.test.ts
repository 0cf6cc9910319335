import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from './server-sent-events.js';

async function collect(chunks: string[]) {
  const encoder = new TextEncoder();
  const events = [];
  for await (const event of readServerSentEvents(chunks.map((chunk) => encoder.encode(chunk)))) events.push(event);
  return events;
}

describe('readServerSentEvents', () => {
  it('assembles events split across chunks, with CRLF, comments and multi-line data; drops an unfinished one', async () => {
    expect(
      await collect([
        'event: ping\r\nda',
        'ta: {"a":',
        '1}\r\n\r\n: comment\n',
        'data: one\ndata: two\n\n',
        'data: last',
      ]),
    ).toEqual([{ event: 'ping', data: '{"a":1}' }, { data: 'one\ntwo' }]);
  });

  it('keeps a multi-byte character split between chunks intact', async () => {
    const bytes = new TextEncoder().encode('data: é\n\n');
    const events = [];
    for await (const event of readServerSentEvents([bytes.slice(0, 7), bytes.slice(7)])) events.push(event);
    expect(events).toEqual([{ data: 'é' }]);
  });
});
