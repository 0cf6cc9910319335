import { readSync, writeSync } from 'node:fs';
import { DefaultSerializer, deserialize } from 'node:v8';

/** The worker's end of its channel (worker-protocol.ts): file descriptor 3, a socket. */
const channelFd = 3;
const lengthBytes = 4;
const noLength = Buffer.alloc(lengthBytes);
/** The read buffer's size, enough for any ordinary request; a longer one gets a buffer of its own size while it lasts. */
export const readBufferBytes = 64 * 1024;
/**
 * A request buffer at least this large is collected as soon as it is let go, with the request it held (the process
 * runs with `--expose-gc`): an idle worker allocates too little for V8 to collect it on its own for a long time.
 */
const collectAfterBytes = 8 * 1024 * 1024;

/** Blocking reads and writes of the channel: `readSync` and `writeSync` on its descriptor (tests pass their own). */
export interface ChannelIo {
  read(buffer: Buffer, offset: number, length: number): number;
  write(data: Buffer, offset: number, length: number): number;
}

const socketIo: ChannelIo = {
  read: (buffer, offset, length) => readSync(channelFd, buffer, offset, length, null),
  write: (data, offset, length) => writeSync(channelFd, data, offset, length),
};

/** A read or write of the channel that a signal interrupted is simply done again. */
function interrupted(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'EINTR';
}

/** Writes a reply: its length, then its value serialized. */
function writeReply(io: ChannelIo, reply: unknown): void {
  const serializer = new DefaultSerializer();
  serializer.writeRawBytes(noLength);
  serializer.writeHeader();
  serializer.writeValue(reply);
  const data = serializer.releaseBuffer();
  data.writeUInt32BE(data.length - lengthBytes, 0);
  let written = 0;
  while (written < data.length) {
    try {
      written += io.write(data, written, data.length - written);
    } catch (error) {
      if (!interrupted(error)) throw error;
    }
  }
}

/**
 * Answers the request in `buffer` from `from` to `to`. A function of its own, so that nothing of the request (its view
 * of the buffer, its value, the reply) stays in the reading loop's frame once it is answered, where a collection could
 * not free it.
 */
function answerOne(io: ChannelIo, answer: (request: unknown) => unknown, buffer: Buffer, from: number, to: number) {
  writeReply(io, answer(deserialize(buffer.subarray(from, to))));
}

/**
 * Reads each request with a blocking read, answers it with `answer`'s value, and returns when the server closes the
 * channel (it exited, or was killed). A request longer than the read buffer is read into a buffer of its own size,
 * which is let go once it has been answered: a worker that once read a statement or parameter of 60 MB kept that
 * buffer, and so that much resident memory, for the rest of its life.
 */
export function answerRequests(answer: (request: unknown) => unknown, io: ChannelIo = socketIo): void {
  for (;;) {
    const outcome = answerUntilReleased(answer, io);
    if (outcome === 'closed') return;
    // The reading frame, whose slots still held the long request's buffer, is gone: it can be collected now. Twice:
    // after the first collection the request's value (a 40 MB string parameter) was still there, 44 MB of heap and
    // external memory; the second frees it (resident memory 13 MB idle, 57 MB after one collection, 17 MB after two).
    if (outcome === 'collect') {
      const collect = (globalThis as { gc?: () => void }).gc;
      collect?.();
      collect?.();
    }
  }
}

/** Answers requests until the channel closes, or until a buffer longer than the usual one is no longer needed. */
function answerUntilReleased(answer: (request: unknown) => unknown, io: ChannelIo): 'closed' | 'released' | 'collect' {
  let buffer = Buffer.allocUnsafe(readBufferBytes);
  let start = 0;
  let end = 0;
  for (;;) {
    if (end - start >= lengthBytes) {
      const messageEnd = start + lengthBytes + buffer.readUInt32BE(start);
      if (messageEnd <= end) {
        answerOne(io, answer, buffer, start + lengthBytes, messageEnd);
        start = messageEnd;
        continue;
      }
      // A message longer than the buffer (a long statement): a buffer that holds all of it.
      if (messageEnd - start > buffer.length) {
        const larger = Buffer.allocUnsafe(messageEnd - start);
        buffer.copy(larger, 0, start, end);
        buffer = larger;
        end -= start;
        start = 0;
      }
    }
    if (start === end) {
      start = 0;
      end = 0;
      if (buffer.length > readBufferBytes) return buffer.length >= collectAfterBytes ? 'collect' : 'released';
    } else if (end === buffer.length) {
      buffer.copy(buffer, 0, start, end);
      end -= start;
      start = 0;
    }
    let read: number;
    try {
      read = io.read(buffer, end, buffer.length - end);
    } catch (error) {
      if (interrupted(error)) continue;
      throw error;
    }
    if (read === 0) return 'closed';
    end += read;
  }
}
