/**
 * `node:v8`, taken at the first frame instead of imported at the top: this module loads with the server's start,
 * before its first answer, and the first worker starts later (ADR 0021).
 */
let v8Module: typeof import('node:v8') | undefined;
function v8(): typeof import('node:v8') {
  v8Module ??= process.getBuiltinModule('node:v8');
  return v8Module;
}

/** Which stdio entry of a worker process is its channel (worker-protocol.ts). */
export const workerChannelFd = 3;

const lengthBytes = 4;
const noLength = Buffer.alloc(lengthBytes);

/** A request as it travels: its length, then its value serialized (one buffer, no copy of the value's bytes). */
export function frame(message: unknown): Buffer {
  const serializer = new (v8().DefaultSerializer)();
  serializer.writeRawBytes(noLength);
  serializer.writeHeader();
  serializer.writeValue(message);
  const framed = serializer.releaseBuffer();
  framed.writeUInt32BE(framed.length - lengthBytes, 0);
  return framed;
}

/** The server's end of a worker's channel: cuts what it reads, in chunks as they come, back into messages. */
export class FrameReader {
  /** The start of a message whose end has not come yet, and how many bytes that message takes in all. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private needed = lengthBytes;

  /** Takes a chunk read from the channel and calls `onMessage` with each message it completes, in order. */
  push(chunk: Buffer, onMessage: (message: unknown) => void): void {
    let data = chunk;
    if (this.partialBytes > 0) {
      this.partial.push(chunk);
      this.partialBytes += chunk.length;
      if (this.partialBytes < this.needed) return;
      data = Buffer.concat(this.partial, this.partialBytes);
      this.partial = [];
      this.partialBytes = 0;
    }
    let offset = 0;
    while (data.length - offset >= lengthBytes) {
      const end = offset + lengthBytes + data.readUInt32BE(offset);
      if (end > data.length) break;
      onMessage(v8().deserialize(data.subarray(offset + lengthBytes, end)));
      offset = end;
    }
    if (offset === data.length) return;
    const rest = data.subarray(offset);
    this.partial = [rest];
    this.partialBytes = rest.length;
    this.needed = rest.length >= lengthBytes ? lengthBytes + rest.readUInt32BE(0) : lengthBytes;
  }
}
