import { describe, expect, it } from 'vitest';
import { applyEdits, applyLayout, parseLayout } from './text-edits.js';

describe('text layout', () => {
  it('round-trips CRLF and a BOM', () => {
    const raw = '\ufeffa\r\nb\r\n';
    const { layout, text } = parseLayout(raw);
    expect(layout).toEqual({ bom: true, crlf: true });
    expect(text).toBe('a\nb\n');
    expect(applyLayout(text, layout)).toBe(raw);
  });

  it('keeps LF files as LF', () => {
    const { layout } = parseLayout('a\nb\n');
    expect(applyLayout('x\ny\n', layout)).toBe('x\ny\n');
  });
});

describe('applyEdits', () => {
  it('replaces a unique match and refuses an ambiguous one unless replaceAll', () => {
    expect(applyEdits('one two', [{ oldText: 'two', newText: '2' }])).toBe('one 2');
    expect(() => applyEdits('x x', [{ oldText: 'x', newText: 'y' }])).toThrow(/matches 2 times/);
    expect(applyEdits('x x', [{ oldText: 'x', newText: 'y', replaceAll: true }])).toBe('y y');
  });

  it('matches lines whose indentation differs, keeping the file indentation', () => {
    const text = 'function f() {\n    return 1;\n}\n';
    expect(applyEdits(text, [{ oldText: 'return 1;', newText: 'return 2;' }])).toBe(
      'function f() {\n    return 2;\n}\n',
    );
    expect(applyEdits(text, [{ oldText: 'return 1;\n  }', newText: 'return 3;\n}' }])).toBe(
      'function f() {\n    return 3;\n}\n',
    );
  });

  it('treats $ patterns in newText literally and applies edits in order', () => {
    expect(applyEdits('a', [{ oldText: 'a', newText: "$&$'" }])).toBe("$&$'");
    expect(
      applyEdits('a', [
        { oldText: 'a', newText: 'b' },
        { oldText: 'b', newText: 'c' },
      ]),
    ).toBe('c');
  });

  it('refuses an empty or missing oldText with a sentence naming the edit', () => {
    expect(() => applyEdits('a', [{ oldText: '', newText: 'b' }])).toThrow(/empty oldText/);
    expect(() =>
      applyEdits('a', [
        { oldText: 'a', newText: 'b' },
        { oldText: 'zzz', newText: 'b' },
      ]),
    ).toThrow(/^Edit 2: oldText was not found/);
  });

  it('refuses a result longer than the cap before building it, for exact and indentation-blind matches', () => {
    expect(() => applyEdits('a'.repeat(100), [{ oldText: 'a', newText: 'bb', replaceAll: true }], 150)).toThrow(
      /^The edits would make the file 200 characters long/,
    );
    expect(applyEdits('a'.repeat(100), [{ oldText: 'a', newText: 'b', replaceAll: true }], 150)).toBe('b'.repeat(100));
    const lines = '    a\n'.repeat(100);
    expect(() => applyEdits(lines, [{ oldText: 'a ', newText: 'b'.repeat(50), replaceAll: true }], 1_000)).toThrow(
      /^The edits would make the file [\d,]+ characters long/,
    );
    expect(applyEdits(lines, [{ oldText: 'a ', newText: 'b', replaceAll: true }], 1_000)).toBe('    b\n'.repeat(100));
  });
});
