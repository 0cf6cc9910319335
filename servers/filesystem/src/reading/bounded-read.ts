import { ToolError } from '@mcpkit/server-kit';
import type { ReadableFile } from '../confinement/descriptor-file.js';

const chunkSize = 1024 * 1024;

/**
 * Reads a whole file from its open descriptor but never more than `cap + 1` bytes, so a file that grows after it was
 * checked cannot push a result over its cap; undefined when the file holds more than `cap` bytes.
 */
export async function readAtMost(handle: ReadableFile, cap: number, signal?: AbortSignal): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    if (signal?.aborted) throw new ToolError('The request was cancelled.');
    const wanted = Math.min(chunkSize, cap + 1 - total);
    const chunk = Buffer.allocUnsafe(wanted);
    const { bytesRead } = await handle.read(chunk, 0, wanted, total);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === wanted ? chunk : chunk.subarray(0, bytesRead));
    total += bytesRead;
    if (total > cap) return undefined;
  }
  return Buffer.concat(chunks, total);
}
