import { promisify } from 'node:util';
import { brotliDecompress, constants, gunzip, inflate, inflateRaw, type ZlibOptions } from 'node:zlib';
import { ToolError } from '@mcpkit/server-kit';

const gunzipped = promisify(gunzip);
const inflated = promisify(inflate);
const rawInflated = promisify(inflateRaw);
const brotliDecompressed = promisify(brotliDecompress);

/**
 * A fetched body decoded by its `content-encoding`, on libuv's thread pool: a page that inflates to the 20 MB cap
 * takes 15-55 ms to decode, which on the main thread held every other request (about 155 ms with 20 such pages at
 * once). A body that inflates past `maxDecodedBytes` is refused as a decompression bomb; a body cut at the byte cap
 * (`truncated`) is decoded as far as it goes.
 */
export async function decodeBody(
  bytes: Buffer,
  encoding: string,
  maxDecodedBytes: number,
  truncated: boolean,
): Promise<Buffer> {
  if (encoding === '' || encoding === 'identity') return bytes;
  // A cut body cannot finish its stream, so decode what arrived with a sync flush rather than fail.
  const options: ZlibOptions = {
    maxOutputLength: maxDecodedBytes,
    ...(truncated ? { finishFlush: constants.Z_SYNC_FLUSH } : {}),
  };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return await gunzipped(bytes, options);
    if (encoding === 'br') {
      return await brotliDecompressed(bytes, {
        maxOutputLength: maxDecodedBytes,
        ...(truncated ? { finishFlush: constants.BROTLI_OPERATION_FLUSH } : {}),
      });
    }
    if (encoding === 'deflate') {
      try {
        return await inflated(bytes, options);
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw error;
        return await rawInflated(bytes, options);
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
      throw new ToolError(
        `The page decompresses to more than ${Math.round(maxDecodedBytes / 1024 / 1024)} MB; refused as too large.`,
      );
    }
    throw new ToolError(`The page's ${encoding} encoding could not be decoded.`);
  }
  throw new ToolError(`The page uses the unsupported content encoding "${encoding}".`);
}
