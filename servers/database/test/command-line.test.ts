import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, makeFixture } from './fixtures.js';

const run = promisify(execFile);

async function exitOf(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [binPath, ...args], { timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('mcpkit-database command line', () => {
  const fixture = makeFixture();
  afterAll(() => fixture.cleanup());

  it('refuses a missing file unless --create is given', async () => {
    const missing = join(fixture.directory, 'missing.sqlite');
    const result = await exitOf([missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The database file ${missing} does not exist; pass --create`);
    expect(existsSync(missing)).toBe(false);
  });

  it('creates an empty database with --create and serves it', async () => {
    const created = join(fixture.directory, 'created.sqlite');
    await using client = await spawnTestClient({ command: process.execPath, args: [binPath, '--create', created] });
    expect(await client.callToolText('list_tables')).toBe('The database has no tables or views.');
    expect(existsSync(created)).toBe(true);
  });

  it('exits with code 2 on a bad flag value, and on an unknown flag', async () => {
    expect(await exitOf(['--max-rows', 'lots', fixture.file])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('--max-rows takes a positive integer'),
    });
    expect((await exitOf(['--nope', fixture.file])).code).toBe(2);
    expect((await exitOf([])).code).toBe(2);
  });

  it('prints --help to stdout and exits 0, for the server and for the sample subcommand', async () => {
    const help = await exitOf(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('--max-rows N');
    expect(help.stdout).toMatch(/mcpkit-database sample FILE\s+Writes the demo database/);
    const sampleHelp = await exitOf(['sample', '--help']);
    expect(sampleHelp).toMatchObject({ code: 0, stderr: '' });
    expect(sampleHelp.stdout).toContain('Usage: mcpkit-database sample [options] FILE');
    expect(await exitOf(['sample'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringContaining('mcpkit-database sample needs FILE'),
    });
  });

  it('tells clients its title and the package version', async () => {
    await using client = await spawnTestClient({ command: process.execPath, args: [binPath, fixture.file] });
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    expect(client.client.getServerVersion()).toMatchObject({
      name: 'mcpkit-database',
      title: 'SQLite Database',
      version,
    });
  });

  it('refuses a file that is not a SQLite database with a clear message', async () => {
    const result = await exitOf([binPath]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Cannot open the database .*: file is not a database/);
  });

  it('writes the sample database with the sample subcommand, and refuses to overwrite it', async () => {
    const sample = join(fixture.directory, 'sample.sqlite');
    const first = await exitOf(['sample', sample]);
    expect(first).toMatchObject({
      code: 0,
      stderr: expect.stringContaining('users 8, customers 6, products 8, orders 40'),
    });
    const db = new Database(sample, { readonly: true });
    expect(db.prepare('SELECT full_name FROM users ORDER BY id LIMIT 1').pluck().get()).toBe('Ada Lovelace');
    db.close();
    expect((await exitOf(['sample', sample])).code).toBe(1);
  });

  it('applies --max-rows and reports a read-only server in its instructions', async () => {
    await using client = await spawnTestClient({
      command: process.execPath,
      args: [binPath, '--max-rows', '5', fixture.file],
    });
    const result = await client.callTool('query', { sql: 'SELECT * FROM numbers' });
    expect(result.structuredContent).toMatchObject({ rowCount: 5, truncated: 'row_cap' });
    expect(client.client.getInstructions()).toContain('This server is read-only.');
  });
});
