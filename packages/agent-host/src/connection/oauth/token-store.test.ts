import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultTokenFile, TokenStore, tokenFileVariable } from './token-store.js';

const tokens = { access_token: 'access-1', token_type: 'Bearer', refresh_token: 'refresh-1' };

describe('TokenStore', () => {
  it('keeps credentials per server URL and issuer in a file only the user can read', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcpkit-tokens-')), 'nested', 'tokens.json');
    const store = new TokenStore(file);
    await store.update('https://a.example/mcp', 'https://as-1.example', (current) => ({ ...current, tokens }), true);
    await store.update('https://a.example/mcp', 'https://as-2.example', () => ({ client: { client_id: 'c2' } }));
    await store.update('https://b.example/mcp', 'https://as-1.example', () => ({ client: { client_id: 'b' } }));

    expect(statSync(file).mode & 0o777).toBe(0o600);
    if (process.platform !== 'win32') expect(statSync(join(file, '..')).mode & 0o777).toBe(0o700);
    expect((await store.get('https://a.example/mcp'))?.tokens).toEqual(tokens);
    expect(await store.get('https://a.example/mcp', 'https://as-2.example')).toEqual({ client: { client_id: 'c2' } });
    expect(await new TokenStore(file).get('https://b.example/mcp', 'https://as-1.example')).toEqual({
      client: { client_id: 'b' },
    });

    expect(await store.forget('https://a.example/mcp')).toBe(true);
    expect(await store.forget('https://a.example/mcp')).toBe(false);
    expect(await store.server('https://a.example/mcp')).toBeUndefined();
    expect(await store.server('https://b.example/mcp')).toBeDefined();
  });

  it('lives where the variable says, else in the platform config directory', () => {
    expect(defaultTokenFile({ [tokenFileVariable]: '/tmp/t.json' })).toBe('/tmp/t.json');
    expect(defaultTokenFile({ XDG_CONFIG_HOME: '/home/u/.cfg', APPDATA: 'C:\\Users\\u\\AppData\\Roaming' })).toMatch(
      /mcpkit[/\\]tokens\.json$/,
    );
  });
});
