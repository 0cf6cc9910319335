import { readSync, writeSync } from 'node:fs';
import { DefaultSerializer, deserialize } from 'node:v8';

/** The worker's end of its channel (worker-protocol.ts): file descriptor 3, a socket. */
const channelFd = 3;
const lengthBytes = 4;
const noLength = Buffer.alloc(lengthBytes);

/** A read or write of the channel that a signal interrupted is simply done again. */
function interrupted(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'EINTR';
}

/** Writes a reply: its length, then its value serialized. */
function writeReply(reply: unknown): void {
  const serializer = new DefaultSerializer();
  serializer.writeRawBytes(noLength);
  serializer.writeHeader();
  serializer.writeValue(reply);
  const data = serializer.releaseBuffer();
  data.writeUInt32BE(data.length - lengthBytes, 0);
  let written = 0;
  while (written < data.length) {
    try {
      written += writeSync(channelFd, data, written, data.length - written);
    } catch (error) {
      if (!interrupted(error)) throw error;
    }
  }
}

/**
 * Reads each request with a blocking read, answers it with `answer`'s value, and returns when the server closes the
 * channel (it exited, or was killed).
 */
export function answerRequests(answer: (request: unknown) => unknown): void {
  let buffer = Buffer.allocUnsafe(64 * 1024);
  let start = 0;
  let end = 0;
  for (;;) {
    if (end - start >= lengthBytes) {
      const messageEnd = start + lengthBytes + buffer.readUInt32BE(start);
      if (messageEnd <= end) {
        const request = deserialize(buffer.subarray(start + lengthBytes, messageEnd));
        start = messageEnd;
        writeReply(answer(request));
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
    } else if (end === buffer.length) {
      buffer.copy(buffer, 0, start, end);
      end -= start;
      start = 0;
    }
    let read: number;
    try {
      read = readSync(channelFd, buffer, end, buffer.length - end, null);
    } catch (error) {
      if (interrupted(error)) continue;
      throw error;
    }
    if (read === 0) return;
    end += read;
  }
}
