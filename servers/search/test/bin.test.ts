import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// These tests run the built bin: `pnpm build` (or turbo) first.
const bin = fileURLToPath(new URL('../bin/mcpkit-search.js', import.meta.url));
const corpus = fileURLToPath(new URL('./fixtures/company/', import.meta.url));
const packageVersion = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mcpkit-search-bin-'));
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});

describe('mcpkit-search bin', () => {
  it('serves the directory over stdio and answers the vacation question with path:line', async () => {
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [bin, '--index-file', join(workspace, 'serve.sqlite'), '--no-watch', corpus],
    });
    const text = await client.callToolText('search', { query: "What is our company's vacation policy?", limit: 3 });
    expect(text).toMatch(/^1\. .*\/hr\/vacation-policy\.md:\d+ \(Vacation Policy\)/);
    const document = await client.callToolText('get_document', { path: 'hr/vacation-policy.md', limit: 3 });
    expect(document).toContain('# Vacation Policy');
    const refused = await client.callTool('fetch_url', { url: 'http://[::ffff:127.0.0.1]:9/' });
    expect(refused.isError).toBe(true);
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).not.toContain('web_search');
  });

  it('accepts the serve subcommand and offers web_search when SEARXNG_URL is set', async () => {
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [bin, 'serve', '--index-file', join(workspace, 'web.sqlite'), '--no-watch', corpus],
      env: { SEARXNG_URL: 'http://127.0.0.1:9/', BRAVE_API_KEY: '' },
    });
    expect((await client.client.listTools()).tools.map((tool) => tool.name)).toContain('web_search');
    const unreachable = await client.callTool('web_search', { query: 'anything' });
    expect(unreachable.isError).toBe(true);
  });

  it('builds the index from the command line with plain progress lines when stderr is not a terminal', () => {
    const indexFile = join(workspace, 'cli.sqlite');
    const first = spawnSync(process.execPath, [bin, 'index', '--index-file', indexFile, corpus], { encoding: 'utf8' });
    expect(first.status).toBe(0);
    expect(first.stdout).toBe('');
    expect(first.stderr).toMatch(/Indexed \[#+\] 100% 14\/14 changed files/);
    expect(first.stderr).toContain('14 added');
    expect(first.stderr).not.toContain('\r');
    const again = spawnSync(process.execPath, [bin, 'index', '--index-file', indexFile, corpus], { encoding: 'utf8' });
    expect(again.stderr).toContain('0 added, 0 updated, 0 removed, 14 unchanged');
  });

  it('keeps the default index file in MCPKIT_SEARCH_CACHE, named by a hash of the directories', () => {
    const cache = join(workspace, 'cache');
    const run = spawnSync(process.execPath, [bin, 'index', corpus], {
      encoding: 'utf8',
      env: { ...process.env, MCPKIT_SEARCH_CACHE: cache },
    });
    expect(run.status).toBe(0);
    const [file] = readdirSync(cache).filter((name) => name.endsWith('.sqlite'));
    expect(file).toMatch(/^index-[0-9a-f]{16}\.sqlite$/);
    expect(run.stderr).toContain(`Index: ${join(cache, file as string)}\n`);
  });

  it('prints --help to stdout and exits 0, for the server and for the index subcommand', () => {
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stderr).toBe('');
    expect(help.stdout).toContain('Usage: mcpkit-search [serve] [options] [DIR...]');
    expect(help.stdout).toMatch(/mcpkit-search index DIR \[DIR\.\.\.\]\s+Builds or refreshes the index/);
    const indexHelp = spawnSync(process.execPath, [bin, 'index', '--help'], { encoding: 'utf8' });
    expect(indexHelp.status).toBe(0);
    expect(indexHelp.stdout).toContain('--max-file-size BYTES');
    const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(version.stdout).toBe(`${packageVersion}\n`);
  });

  it('tells clients its title and the package version', async () => {
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [bin, '--index-file', join(workspace, 'title.sqlite'), '--no-watch', corpus],
    });
    expect(client.client.getServerVersion()).toMatchObject({
      name: 'mcpkit-search',
      title: 'Document and Web Search',
      version: packageVersion,
    });
  });

  it('exits with code 2 and one line on a bad command line', () => {
    const bad = spawnSync(process.execPath, [bin, '--no-such-flag', corpus], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/Unknown option '--no-such-flag'/);
    const size = spawnSync(process.execPath, [bin, 'index', '--max-file-size', 'lots', corpus], { encoding: 'utf8' });
    expect(size.status).toBe(2);
    expect(size.stderr).toContain('--max-file-size takes a positive integer');
    expect(size.stdout).toBe('');
    const missing = spawnSync(process.execPath, [bin, join(workspace, 'missing')], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/does not exist/);
  });
});
