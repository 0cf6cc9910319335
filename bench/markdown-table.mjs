/**
 * A Markdown table laid out the way the repository's formatter (Biome) lays it out, so that a bench's `--write`
 * leaves its README clean. `rightAligned[column]` right-aligns a column (numbers); returns the table's lines.
 * @param {string[]} header
 * @param {string[][]} rows
 * @param {boolean[]} rightAligned
 * @returns {string[]}
 */
export function markdownTable(header, rows, rightAligned) {
  const widths = header.map((cell, column) => Math.max(3, cell.length, ...rows.map((row) => row[column].length)));
  const line = (cells) =>
    `| ${cells.map((cell, column) => (rightAligned[column] ? cell.padStart(widths[column]) : cell.padEnd(widths[column]))).join(' | ')} |`;
  const rule = widths.map((width, column) => (rightAligned[column] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width)));
  return [line(header), `| ${rule.join(' | ')} |`, ...rows.map(line)];
}
