import { closeSync, fstatSync, read, type Stats } from 'node:fs';

/** What the readers need of an open file: positioned reads, its stats, and closing it (a `FileHandle` fits). */
export interface ReadableFile {
  readonly fd: number;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<Stats>;
  close(): Promise<void>;
}

/**
 * A file opened by the confinement with a synchronous `open`: content is read asynchronously on libuv's threads
 * (one round trip per chunk), stats and close are synchronous (they never wait on the disk for a file opened for
 * reading), and closing twice is harmless.
 */
export class DescriptorFile implements ReadableFile {
  private closed = false;
  readonly fd: number;

  constructor(fd: number) {
    this.fd = fd;
  }

  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    return new Promise((resolve, reject) => {
      read(this.fd, buffer, offset, length, position, (error, bytesRead) =>
        error ? reject(error) : resolve({ bytesRead }),
      );
    });
  }

  async stat(): Promise<Stats> {
    return fstatSync(this.fd);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
