import { describe, expect, it } from 'vitest';
import { FrameReader, frame } from './worker-channel.js';
import { answerRequests, type ChannelIo, readBufferBytes } from './worker-requests.js';

/**
 * A channel that hands the worker `incoming` as the server would write it (each read gets as much as fits), collects
 * what the worker writes, and ends (a read of 0 bytes, the server gone) once everything was read. It records the size
 * of the buffer each read was given.
 */
function fakeChannel(incoming: Buffer) {
  let offset = 0;
  const readBuffers: number[] = [];
  const written: Buffer[] = [];
  const io: ChannelIo = {
    read(buffer, at, length) {
      readBuffers.push(buffer.length);
      const count = Math.min(length, incoming.length - offset);
      incoming.copy(buffer, at, offset, offset + count);
      offset += count;
      return count;
    },
    write(data, at, length) {
      written.push(Buffer.from(data.subarray(at, at + length)));
      return length;
    },
  };
  const replies = () => {
    const messages: unknown[] = [];
    new FrameReader().push(Buffer.concat(written), (message) => messages.push(message));
    return messages;
  };
  return { io, readBuffers, replies };
}

describe("the worker's end of its channel", () => {
  it('answers each request in order, a long one too', () => {
    const long = 'x'.repeat(3 * readBufferBytes);
    const channel = fakeChannel(
      Buffer.concat([
        frame({ id: 1, sql: 'SELECT 1' }),
        frame({ id: 2, sql: long }),
        frame({ id: 3, sql: 'SELECT 3' }),
      ]),
    );
    answerRequests((request) => {
      const { id, sql } = request as { id: number; sql: string };
      return { id, length: sql.length };
    }, channel.io);
    expect(channel.replies()).toEqual([
      { id: 1, length: 8 },
      { id: 2, length: long.length },
      { id: 3, length: 8 },
    ]);
  });

  it('lets the buffer of a request longer than its read buffer go once that request is answered', () => {
    const channel = fakeChannel(
      Buffer.concat([frame({ id: 1, sql: 'x'.repeat(4 * readBufferBytes) }), frame({ id: 2, sql: 'SELECT 2' })]),
    );
    const buffersWhenAnswering: number[] = [];
    answerRequests((request) => {
      buffersWhenAnswering.push(channel.readBuffers.length);
      return { id: (request as { id: number }).id };
    }, channel.io);
    expect(channel.replies()).toEqual([{ id: 1 }, { id: 2 }]);
    // The long request was read into a buffer of its own size; every read after its answer uses the usual one again
    // (before, the worker kept the long request's buffer, and its resident memory, for the rest of its life).
    const readsBeforeFirstAnswer = buffersWhenAnswering[0] as number;
    expect(Math.max(...channel.readBuffers.slice(0, readsBeforeFirstAnswer))).toBeGreaterThan(4 * readBufferBytes);
    const readsAfter = channel.readBuffers.slice(readsBeforeFirstAnswer);
    expect(readsAfter.length).toBeGreaterThan(0);
    expect(readsAfter.every((size) => size === readBufferBytes)).toBe(true);
  });
});
