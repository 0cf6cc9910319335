import { contentDigest } from './content-digest.js';
import type { WalkedFile } from './file-walker.js';
import type { IndexedDocument } from './index-writer.js';
import { encodeSpans, passageSpans } from './passage-spans.js';
import { splitPassages } from './passages.js';
import { extractText, looksBinary } from './text-extraction.js';

/** A file the walk found that the index does not hold as it is now. */
export interface ChangedFile extends WalkedFile {
  /** True when the index holds no document at this path. */
  isNew: boolean;
}

/** The file digest of a document whose hits are checked otherwise (binary: never shown; spans: per passage). */
const noDigest = Buffer.alloc(0);

/**
 * The document the index stores for a file's bytes: its text, title and passages, and what a hit checks the file
 * against later (each passage's byte range and digest, or the whole file's digest when passages are not stretches of
 * its bytes). A binary file becomes a document without text, kept so a re-run does not read it again.
 */
export function prepareDocument(
  file: ChangedFile,
  root: string,
  relativePath: string,
  bytes: Uint8Array,
): IndexedDocument & { isNew: boolean } {
  const { path, size, mtimeMs, isNew } = file;
  if (looksBinary(bytes)) {
    const binary = { title: '', lineCount: 0, text: false, digest: noDigest, passages: [], content: '' };
    return { path, size, mtimeMs, isNew, root, relativePath, ...binary };
  }
  const { text, title } = extractText(path, bytes);
  const { passages, lineCount } = splitPassages(text);
  // A hit reads only its passage's bytes, checked by the passage's own digest; a file whose passages are not
  // stretches of its bytes (HTML) is read whole again and checked by the file's digest.
  const spans = passageSpans(bytes, passages);
  return {
    path,
    size,
    mtimeMs,
    isNew,
    root,
    relativePath,
    title,
    lineCount,
    text: true,
    digest: spans ? noDigest : contentDigest(bytes),
    ...(spans ? { spans: encodeSpans(spans) } : {}),
    passages,
    content: text,
  };
}
