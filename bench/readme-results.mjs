import { readFileSync, writeFileSync } from 'node:fs';

/**
 * Replaces what stands between a bench README's two marker lines with `content`, keeping the markers; throws when
 * the README lacks either marker, so that a `--write` never silently leaves old numbers in place.
 * @param {string} readmePath
 * @param {string} content
 * @param {{ start: string, end: string }} markers
 */
export function writeResultsIntoReadme(readmePath, content, markers) {
  const text = readFileSync(readmePath, 'utf8');
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end);
  if (start === -1 || end === -1 || end < start) {
    throw new Error(`${readmePath} has no ${markers.start} ... ${markers.end} markers`);
  }
  writeFileSync(readmePath, `${text.slice(0, start + markers.start.length)}\n${content}${text.slice(end)}`);
}
