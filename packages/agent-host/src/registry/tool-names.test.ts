import { describe, expect, it } from 'vitest';
import { assignToolNames, hashedToolName, providerSafeName } from './tool-names.js';

describe('assignToolNames', () => {
  it('prefixes with the server name and keeps names every provider accepts', () => {
    const names = assignToolNames([
      { server: 'files', tool: 'read_text_file' },
      { server: 'my server', tool: 'tool.with.dots' },
      { server: 'db', tool: 'ünïcode-tool' },
    ]);
    expect(names[0]).toBe('files__read_text_file');
    expect(names[1]).toBe('my_server__tool_with_dots');
    for (const name of names) expect(name).toMatch(providerSafeName);
  });

  it('never gives two tools the same name, even when sanitizing makes them equal', () => {
    const pairs = [
      { server: 'a', tool: 'x.y' },
      { server: 'a', tool: 'x_y' },
      { server: 'a.b', tool: 'c' },
      { server: 'a_b', tool: 'c' },
    ];
    const names = assignToolNames(pairs);
    expect(new Set(names).size).toBe(4);
    expect(names[0]).toBe('a__x_y');
    expect(names[1]).toBe(hashedToolName('a', 'x_y'));
    for (const name of names) expect(name).toMatch(providerSafeName);
  });

  it('shortens long names with a stable hash and keeps them distinct', () => {
    const long = 'x'.repeat(80);
    const names = assignToolNames([
      { server: 'server', tool: `${long}_one` },
      { server: 'server', tool: `${long}_two` },
    ]);
    expect(names[0]).toHaveLength(64);
    expect(names[0]).not.toBe(names[1]);
    expect(assignToolNames([{ server: 'server', tool: `${long}_one` }])[0]).toBe(names[0]);
    for (const name of names) expect(name).toMatch(providerSafeName);
  });
});
