import { describe, expect, it } from 'vitest';
import { parseJsonc } from './parse-jsonc.js';

describe('parseJsonc', () => {
  it('accepts comments and trailing commas, as VS Code writes them', () => {
    const text = '{\n  // the servers\n  "servers": { "a": { "command": "x", /* inline */ "args": ["1",], }, },\n}\n';
    expect(parseJsonc(text, 'mcp.json')).toEqual({ servers: { a: { command: 'x', args: ['1'] } } });
  });

  it('names the file, line and column of the first error', () => {
    expect(() => parseJsonc('{\n  "a": 1\n  "b": 2\n}', '/p/.vscode/mcp.json')).toThrow(
      '/p/.vscode/mcp.json:3:3: is not valid JSON: comma expected.',
    );
    expect(() => parseJsonc('{ "a": ', 'mcp.json')).toThrow(/^mcp\.json:1:8: is not valid JSON: value expected\.$/);
  });
});
