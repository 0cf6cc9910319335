import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@mcpkit/server-kit';
import { resultText, type TestClient } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FilesystemLimits } from '../src/index.js';
import { createFixture, type Fixture } from './fixture.js';

/** How a test wants its server. */
export interface ServerSetup {
  readOnly?: boolean;
  refuseHardLinks?: boolean;
  limits?: Partial<FilesystemLimits>;
  roots?: Root[];
  /** Directories instead of the fixture root. */
  directories?: string[];
}

/** Starts a server (in memory or from the bin) for the fixture and connects a client. */
export type Connect = (fixture: Fixture, setup?: ServerSetup) => Promise<TestClient>;

/**
 * The whole behaviour of the server, run in memory in each protocol era and over stdio from the bin (`connect` picks
 * the era of its client).
 */
export function filesystemSuite(connect: Connect): void {
  let fixture: Fixture;
  const clients: TestClient[] = [];
  beforeEach(() => {
    fixture = createFixture();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    fixture.cleanup();
  });
  const start = async (setup?: ServerSetup) => {
    const client = await connect(fixture, setup);
    clients.push(client);
    return client;
  };
  const call = async (client: TestClient, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool(name, args);
    return { text: resultText(result), isError: result.isError === true, result };
  };

  describe('tools', () => {
    it('lists the tools of the official server plus grep, and only reading tools with --read-only', async () => {
      const client = await start();
      const names = (await client.client.listTools()).tools.map((tool) => tool.name).sort();
      expect(names).toEqual(
        [
          'create_directory',
          'directory_tree',
          'edit_file',
          'get_file_info',
          'grep',
          'list_allowed_directories',
          'list_directory',
          'list_directory_with_sizes',
          'move_file',
          'read_file',
          'read_media_file',
          'read_multiple_files',
          'read_text_file',
          'search_files',
          'write_file',
        ].sort(),
      );
      const tools = (await client.client.listTools()).tools;
      expect(tools.find((tool) => tool.name === 'write_file')?.annotations?.destructiveHint).toBe(true);
      expect(tools.find((tool) => tool.name === 'grep')?.annotations?.readOnlyHint).toBe(true);
      const readOnly = await start({ readOnly: true });
      const readOnlyNames = (await readOnly.client.listTools()).tools.map((tool) => tool.name);
      expect(readOnlyNames).not.toContain('write_file');
      expect(readOnlyNames).not.toContain('edit_file');
      expect(readOnlyNames).not.toContain('move_file');
      expect(readOnlyNames).not.toContain('create_directory');
      expect(readOnlyNames).toContain('read_text_file');
    });

    it('lists the allowed directories and resolves relative paths against the first', async () => {
      const client = await start();
      expect((await call(client, 'list_allowed_directories', {})).text).toBe(`Allowed directories:\n${fixture.root}`);
      expect((await call(client, 'read_text_file', { path: 'hello.txt' })).text).toBe('hello\nworld\n'.trimEnd());
    });

    it('reads text whole, by head, tail, and line range', async () => {
      const client = await start();
      expect((await call(client, 'read_text_file', { path: join(fixture.root, 'lines.txt'), head: 2 })).text).toBe(
        'line 1\nline 2',
      );
      expect((await call(client, 'read_text_file', { path: 'lines.txt', tail: 2 })).text).toBe('line 49\nline 50');
      expect((await call(client, 'read_text_file', { path: 'lines.txt', offset: 10, limit: 3 })).text).toBe(
        'line 10\nline 11\nline 12',
      );
      expect((await call(client, 'read_file', { path: 'sub/nested.txt' })).text).toBe(
        'nested needle here\nsecond line',
      );
      const both = await call(client, 'read_text_file', { path: 'lines.txt', head: 1, tail: 1 });
      expect(both.isError).toBe(true);
      expect(both.text).toMatch(/head or tail, not both/);
    });

    it('cuts a long read at the budget with a note that continues it', async () => {
      const client = await start({ limits: { readBudget: 60 } });
      const first = await call(client, 'read_text_file', { path: 'lines.txt' });
      expect(first.text).toMatch(/^line 1\nline 2\n/);
      const offset = Number(/offset=(\d+)/.exec(first.text)?.[1]);
      expect(offset).toBeGreaterThan(2);
      expect(first.text).toContain('[truncated: showed lines 1-');
      const next = await call(client, 'read_text_file', { path: 'lines.txt', offset });
      expect(next.text.startsWith(`line ${offset}\n`)).toBe(true);
      writeFileSync(join(fixture.root, 'wide.txt'), `${'w'.repeat(500)}\nafter\n`);
      const wide = await call(client, 'read_text_file', { path: 'wide.txt' });
      expect(wide.text).toContain('line 1 alone is longer than the 60-character budget');
      expect(wide.text).toContain('offset=2');
      expect((await call(client, 'read_text_file', { path: 'wide.txt', offset: 2 })).text).toBe('after');
    });

    it('refuses binary files as text and returns images as image content within the size cap', async () => {
      const client = await start({ limits: { mediaBytes: 1_000 } });
      const binary = await call(client, 'read_text_file', { path: 'binary.bin' });
      expect(binary.isError).toBe(true);
      expect(binary.text).toMatch(/binary/);
      const media = await call(client, 'read_media_file', { path: 'image.png' });
      expect(media.result.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
      writeFileSync(join(fixture.root, 'big.png'), Buffer.alloc(2_000));
      const big = await call(client, 'read_media_file', { path: 'big.png' });
      expect(big.isError).toBe(true);
      expect(big.text).toMatch(/over the 1,000-byte cap/);
    });

    it('reads several files, reporting a failing one without failing the batch', async () => {
      const client = await start();
      const { text, isError } = await call(client, 'read_multiple_files', {
        paths: ['hello.txt', 'missing.txt', 'link-out', 'sub/nested.txt'],
      });
      expect(isError).toBe(false);
      expect(text).toContain('hello.txt:\nhello\nworld');
      expect(text).toMatch(/missing\.txt: Error - missing\.txt does not exist/);
      expect(text).toMatch(/link-out: Error - Access denied/);
      expect(text).toContain('nested needle here');
      expect(text).not.toContain('TOP SECRET');
    });

    it('writes files atomically and creates nested directories', async () => {
      const client = await start();
      expect((await call(client, 'write_file', { path: 'new.txt', content: 'fresh' })).text).toBe(
        'Successfully wrote to new.txt',
      );
      expect(readFileSync(join(fixture.root, 'new.txt'), 'utf8')).toBe('fresh');
      await call(client, 'write_file', { path: 'new.txt', content: 'replaced' });
      expect(readFileSync(join(fixture.root, 'new.txt'), 'utf8')).toBe('replaced');
      const missingParent = await call(client, 'write_file', { path: 'no/such/dir/file.txt', content: 'x' });
      expect(missingParent.isError).toBe(true);
      expect(missingParent.text).toMatch(/create it first with create_directory/);
      await call(client, 'create_directory', { path: 'a/b/c' });
      expect(existsSync(join(fixture.root, 'a', 'b', 'c'))).toBe(true);
      expect((await call(client, 'create_directory', { path: 'a/b/c' })).isError).toBe(false);
    });

    it('edits with a diff, dry runs, refuses ambiguous edits unless replaceAll, keeps CRLF and BOM', async () => {
      const client = await start();
      const file = join(fixture.root, 'edit.txt');
      writeFileSync(file, '\ufeffone\r\ntwo\r\ntwo\r\nthree\r\n');
      const dry = await call(client, 'edit_file', {
        path: 'edit.txt',
        edits: [{ oldText: 'one', newText: 'uno' }],
        dryRun: true,
      });
      expect(dry.text).toContain('-one\n+uno');
      expect(readFileSync(file, 'utf8')).toBe('\ufeffone\r\ntwo\r\ntwo\r\nthree\r\n');
      const ambiguous = await call(client, 'edit_file', {
        path: 'edit.txt',
        edits: [{ oldText: 'two', newText: '2' }],
      });
      expect(ambiguous.isError).toBe(true);
      expect(ambiguous.text).toMatch(/matches 2 times/);
      await call(client, 'edit_file', {
        path: 'edit.txt',
        edits: [
          { oldText: 'one', newText: 'uno' },
          { oldText: 'two', newText: 'dos', replaceAll: true },
        ],
      });
      expect(readFileSync(file, 'utf8')).toBe('\ufeffuno\r\ndos\r\ndos\r\nthree\r\n');
      const missing = await call(client, 'edit_file', { path: 'edit.txt', edits: [{ oldText: 'zzz', newText: 'y' }] });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/not found/);
    });

    it('moves files and directories and never replaces an existing destination', async () => {
      const client = await start();
      expect((await call(client, 'move_file', { source: 'hello.txt', destination: 'sub/hello.txt' })).isError).toBe(
        false,
      );
      expect(readFileSync(join(fixture.root, 'sub', 'hello.txt'), 'utf8')).toBe('hello\nworld\n');
      const clash = await call(client, 'move_file', { source: 'lines.txt', destination: 'sub/nested.txt' });
      expect(clash.isError).toBe(true);
      expect(clash.text).toMatch(/already exists/);
      expect((await call(client, 'move_file', { source: 'sub/deeper', destination: 'deeper2' })).isError).toBe(false);
      expect(existsSync(join(fixture.root, 'deeper2', 'deep.md'))).toBe(true);
      const outward = await call(client, 'move_file', { source: 'lines.txt', destination: join(fixture.outside, 'x') });
      expect(outward.isError).toBe(true);
      expect(existsSync(join(fixture.outside, 'x'))).toBe(false);
    });

    it('lists directories with kinds, sizes and pages', async () => {
      const client = await start({ limits: { pageSize: 5 } });
      const first = await call(client, 'list_directory', { path: '.' });
      expect(first.text).toContain('[FILE] .gitignore');
      expect(first.text).toContain('[DIR] build');
      const cursor = /cursor="([^"]+)"/.exec(first.text)?.[1];
      expect(cursor).toBeDefined();
      const second = await call(client, 'list_directory', { path: '.', cursor });
      expect(second.text).not.toContain('.gitignore');
      const sized = await call(client, 'list_directory_with_sizes', { path: 'sub', sortBy: 'size' });
      expect(sized.text).toMatch(/\[FILE\] nested\.txt\s+31 B/);
      expect(sized.text).toMatch(/\[LINK\] loop/);
      expect(sized.text).toContain('Total: 2 files, 1 directories');
      const info = await call(client, 'get_file_info', { path: 'hello.txt' });
      expect(info.text).toContain('size: 12');
      expect(info.text).toContain('isFile: true');
    });

    it('takes any glob up to 256 characters (matched without backtracking) and refuses longer ones', async () => {
      const client = await start();
      const starry = '*?*?*?*?*?*?*?*?*?*?*?*.x';
      const tooLong = `${'a'.repeat(300)}*`;
      for (const [tool, args] of [
        ['search_files', { path: '.', pattern: starry }],
        ['search_files', { path: '.', pattern: '*.txt', excludePatterns: [starry] }],
        ['directory_tree', { path: '.', excludePatterns: [starry] }],
        ['grep', { path: '.', pattern: 'hello', include: [starry] }],
      ] as const) {
        const result = await call(client, tool, args);
        expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(false);
      }
      for (const [tool, args] of [
        ['search_files', { path: '.', pattern: tooLong }],
        ['search_files', { path: '.', pattern: '*.txt', excludePatterns: [tooLong] }],
        ['directory_tree', { path: '.', excludePatterns: [tooLong] }],
        ['grep', { path: '.', pattern: 'hello', include: [tooLong] }],
      ] as const) {
        const result = await call(client, tool, args);
        expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
        expect(result.text).toMatch(/at most 256/);
      }
    });

    it('searches names by glob, respecting .gitignore, with paging', async () => {
      const client = await start({ limits: { searchResults: 2 } });
      const names = await call(client, 'search_files', { path: '.', pattern: '*.txt', maxResults: 100 });
      expect(names.text.split('\n')).toEqual(
        expect.arrayContaining([join(fixture.root, 'hello.txt'), join(fixture.root, 'sub', 'nested.txt')]),
      );
      expect(names.text).not.toContain('out.txt');
      expect(names.text).not.toContain('secret');
      const everything = await call(client, 'search_files', {
        path: '.',
        pattern: 'index.js',
        includeIgnored: true,
      });
      expect(everything.text).toBe(join(fixture.root, 'node_modules', 'pkg', 'index.js'));
      expect((await call(client, 'search_files', { path: '.', pattern: 'index.js' })).text).toBe('No matches found');
      const paged = await call(client, 'search_files', { path: '.', pattern: '*.txt' });
      const cursor = /cursor="([^"]+)"/.exec(paged.text)?.[1];
      expect(cursor).toBeDefined();
      const rest = await call(client, 'search_files', { path: '.', pattern: '*.txt', cursor });
      expect(rest.text).not.toContain(paged.text.split('\n')[0]);
      const byPath = await call(client, 'search_files', { path: '.', pattern: 'sub/**/*.md', maxResults: 100 });
      expect(byPath.text).toBe(join(fixture.root, 'sub', 'deeper', 'deep.md'));
      // The official server's glob style keeps working.
      const official = await call(client, 'search_files', {
        path: '.',
        pattern: '**/*.md',
        excludePatterns: ['**/deeper/**'],
      });
      expect(official.text).toBe('No matches found');
      expect((await call(client, 'search_files', { path: 'sub', pattern: '**/deep.md' })).text).toBe(
        join(fixture.root, 'sub', 'deeper', 'deep.md'),
      );
    });

    it('draws the tree as JSON or compact, with depth, exclusions and a cursor', async () => {
      const client = await start({ limits: { treeEntries: 4 } });
      const json = await call(client, 'directory_tree', { path: 'sub', maxDepth: 1 });
      const tree = JSON.parse(json.text) as Array<{ name: string; type: string; children?: unknown[] }>;
      expect(tree.map((node) => node.name)).toEqual(['deeper', 'loop', 'nested.txt']);
      expect(tree[0]).toEqual({ name: 'deeper', type: 'directory' });
      const deeper = JSON.parse((await call(client, 'directory_tree', { path: 'sub', maxDepth: 2 })).text);
      expect(deeper[0]).toEqual({ name: 'deeper', type: 'directory', children: [{ name: 'deep.md', type: 'file' }] });
      const compact = await call(client, 'directory_tree', { path: '.', format: 'compact' });
      expect(compact.text).toMatch(/^\.gitignore\n/);
      const cursor = /cursor="([^"]+)"/.exec(compact.text)?.[1];
      expect(cursor).toBeDefined();
      const next = await call(client, 'directory_tree', { path: '.', format: 'compact', cursor });
      expect(next.text.split('\n')[0]).not.toBe('.gitignore');
      // A JSON page that starts inside a directory repeats its ancestors, so every page parses on its own.
      const onePerPage = await start({ limits: { treeEntries: 1 } });
      const firstJson = await call(onePerPage, 'directory_tree', { path: 'sub' });
      const [firstBody, firstNote] = firstJson.text.split('\n');
      expect(JSON.parse(firstBody ?? '')).toEqual([{ name: 'deeper', type: 'directory', children: [] }]);
      const jsonCursor = /cursor="([^"]+)"/.exec(firstNote ?? '')?.[1];
      const secondJson = await call(onePerPage, 'directory_tree', { path: 'sub', cursor: jsonCursor });
      expect(JSON.parse(secondJson.text.split('\n')[0] ?? '')).toEqual([
        { name: 'deeper', type: 'directory', children: [{ name: 'deep.md', type: 'file' }] },
      ]);
      const excluded = await call(client, 'directory_tree', {
        path: 'sub',
        excludePatterns: ['deeper'],
        format: 'compact',
      });
      // Positive control: the excluding call lists the rest of sub, so missing `deep` is the exclusion at work.
      expect(excluded.text).toContain('nested.txt');
      expect(excluded.text).not.toContain('deep');
    });

    it('greps with regex, literal, case, context, globs and a cursor, skipping binary and ignored files', async () => {
      const client = await start({ limits: { grepMatches: 1 } });
      const regex = await call(client, 'grep', { pattern: 'need(le)? here', maxMatches: 50 });
      expect(regex.text).toContain(`${join(fixture.root, 'sub', 'nested.txt')}\n1: nested needle here`);
      expect(regex.text).not.toContain('SECRET');
      const literal = await call(client, 'grep', {
        pattern: 'needle',
        literal: true,
        ignoreCase: true,
        maxMatches: 50,
      });
      expect(literal.text).toContain('2: NEEDLE upper');
      expect(literal.text).not.toContain('in build');
      expect(literal.text).not.toContain('in node_modules');
      expect(literal.text).not.toContain('binary.bin');
      const withIgnored = await call(client, 'grep', { pattern: 'needle in', includeIgnored: true, maxMatches: 50 });
      expect(withIgnored.text).toContain('needle in build');
      const context = await call(client, 'grep', {
        pattern: 'second',
        contextLines: 1,
        include: ['*.txt'],
        path: 'sub',
      });
      expect(context.text).toContain('1- nested needle here\n2: second line');
      const paged = await call(client, 'grep', { pattern: 'needle', ignoreCase: true });
      const cursor = /cursor="([^"]+)"/.exec(paged.text)?.[1];
      expect(cursor).toBeDefined();
      const more = await call(client, 'grep', { pattern: 'needle', ignoreCase: true, cursor });
      expect(more.text).not.toBe(paged.text);
      const bad = await call(client, 'grep', { pattern: '(unclosed' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/not a valid regular expression/);
    });

    it('reads files and directories as file:// resources, inside the roots only', async () => {
      const client = await start();
      const templates = await client.client.listResourceTemplates();
      expect(templates.resourceTemplates[0]?.uriTemplate).toBe('file://{+path}');
      const file = await client.client.readResource({ uri: pathToFileURL(join(fixture.root, 'hello.txt')).href });
      expect(file.contents[0]).toMatchObject({ text: 'hello\nworld' });
      const directory = await client.client.readResource({ uri: pathToFileURL(join(fixture.root, 'sub')).href });
      expect(directory.contents[0]).toMatchObject({ text: expect.stringContaining('[FILE] nested.txt') });
      await expect(
        client.client.readResource({ uri: pathToFileURL(join(fixture.outside, 'secret.txt')).href }),
      ).rejects.toThrow(/Access denied/);
    });
  });

  describe('confinement', () => {
    it('refuses a sibling that shares the root as a string prefix (CVE-2025-53110)', async () => {
      const client = await start();
      for (const path of [join(fixture.prefixSibling, 'secret.txt'), '../root_secret/secret.txt']) {
        const read = await call(client, 'read_text_file', { path });
        expect(read.isError).toBe(true);
        expect(read.text).toMatch(/Access denied/);
      }
      const write = await call(client, 'write_file', { path: join(fixture.prefixSibling, 'new.txt'), content: 'x' });
      expect(write.isError).toBe(true);
      expect(existsSync(join(fixture.prefixSibling, 'new.txt'))).toBe(false);
      const listing = await call(client, 'list_directory', { path: fixture.prefixSibling });
      expect(listing.isError).toBe(true);
    });

    it('refuses symlinks that leave the roots, for reads and writes (CVE-2025-53109)', async () => {
      const client = await start();
      for (const path of ['link-out', 'dir-out/secret.txt']) {
        const read = await call(client, 'read_text_file', { path });
        expect(read.isError).toBe(true);
        expect(read.text).not.toContain('TOP SECRET');
      }
      const overwrite = await call(client, 'write_file', { path: 'link-out', content: 'pwned' });
      expect(overwrite.isError).toBe(true);
      const through = await call(client, 'write_file', { path: 'dir-out/planted.txt', content: 'pwned' });
      expect(through.isError).toBe(true);
      const dangling = await call(client, 'write_file', { path: 'dangling', content: 'pwned' });
      expect(dangling.isError).toBe(true);
      const edit = await call(client, 'edit_file', { path: 'link-out', edits: [{ oldText: 'TOP', newText: 'X' }] });
      expect(edit.isError).toBe(true);
      const mkdir = await call(client, 'create_directory', { path: 'dir-out/new-dir' });
      expect(mkdir.isError).toBe(true);
      expect(readFileSync(join(fixture.outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET needle\n');
      expect(existsSync(join(fixture.outside, 'planted.txt'))).toBe(false);
      expect(existsSync(join(fixture.outside, 'missing.txt'))).toBe(false);
      expect(existsSync(join(fixture.outside, 'new-dir'))).toBe(false);
      const info = await call(client, 'get_file_info', { path: 'dir-out' });
      expect(info.isError).toBe(true);
      // A link that stays inside is fine to read, and is never written through.
      expect((await call(client, 'read_text_file', { path: 'link-in' })).text).toBe('hello\nworld');
      expect((await call(client, 'write_file', { path: 'link-in', content: 'x' })).isError).toBe(true);
      const editThrough = await call(client, 'edit_file', {
        path: 'link-in',
        edits: [{ oldText: 'hello', newText: 'x' }],
      });
      expect(editThrough.text).toMatch(/symbolic link, and writes never follow links/);
      expect(readFileSync(join(fixture.root, 'hello.txt'), 'utf8')).toBe('hello\nworld\n');
    });

    it('refuses dangling links and link loops with a sentence saying which', async () => {
      symlinkSync('loop-b', join(fixture.root, 'loop-a'));
      symlinkSync('loop-a', join(fixture.root, 'loop-b'));
      const client = await start();
      const dangling = await call(client, 'read_text_file', { path: 'dangling' });
      expect(dangling).toMatchObject({
        isError: true,
        text: 'Refused: dangling is a symbolic link whose target does not exist.',
      });
      const loop = await call(client, 'read_text_file', { path: 'loop-a' });
      expect(loop).toMatchObject({ isError: true, text: 'Refused: loop-a is a symbolic link in a loop.' });
      expect((await call(client, 'write_file', { path: 'loop-a', content: 'x' })).isError).toBe(true);
    });

    it('does not reveal whether a file exists behind a link that leaves the roots', async () => {
      const client = await start();
      const missing = await call(client, 'read_text_file', { path: 'dir-out/no-such-file.txt' });
      expect(missing.text).toMatch(/Access denied/);
    });

    it('never walks through links, survives the loop, and lists nothing outside', async () => {
      const client = await start();
      const tree = await call(client, 'directory_tree', { path: '.', format: 'compact', includeIgnored: true });
      expect(tree.text).toContain('loop@');
      expect(tree.text).toContain('dir-out@');
      expect(tree.text).not.toContain('secret.txt');
      const search = await call(client, 'search_files', { path: '.', pattern: 'secret*', includeIgnored: true });
      expect(search.text).toBe('No matches found');
      // Positive control: the same search finds a name that is inside.
      const inside = await call(client, 'search_files', { path: '.', pattern: 'nested*', includeIgnored: true });
      expect(inside.text).toContain(join(fixture.root, 'sub', 'nested.txt'));
      const grep = await call(client, 'grep', { pattern: 'SECRET', includeIgnored: true });
      expect(grep.text).toMatch(/^No matches found/);
    });

    it('refuses FIFOs and sockets instead of blocking on them', async () => {
      const client = await start();
      const read = await call(client, 'read_text_file', { path: 'pipe' });
      expect(read.isError).toBe(true);
      expect(read.text).toMatch(/named pipe/);
      const socketServer = createNetServer();
      await new Promise<void>((resolve) => socketServer.listen(join(fixture.root, 'socket'), resolve));
      try {
        const socket = await call(client, 'read_media_file', { path: 'socket' });
        expect(socket).toMatchObject({ isError: true, text: expect.stringMatching(/is a socket, not a regular file/) });
      } finally {
        await new Promise((resolve) => socketServer.close(resolve));
      }
      const write = await call(client, 'write_file', { path: 'pipe', content: 'x' });
      expect(write.isError).toBe(true);
      const grep = await call(client, 'grep', { pattern: 'anything', path: '.' });
      expect(grep.isError).toBe(false);
    });

    it('reads hard links by default but never writes through them; refuses them with --refuse-hard-links', async () => {
      const client = await start();
      expect((await call(client, 'read_text_file', { path: 'hard.txt' })).text).toBe('HARD LINKED original');
      await call(client, 'write_file', { path: 'hard.txt', content: 'changed inside' });
      await call(client, 'edit_file', { path: 'hard.txt', edits: [{ oldText: 'changed', newText: 'edited' }] });
      expect(readFileSync(join(fixture.root, 'hard.txt'), 'utf8')).toBe('edited inside');
      expect(readFileSync(join(fixture.outside, 'hard-target.txt'), 'utf8')).toBe('HARD LINKED original\n');
      const strict = await start({ refuseHardLinks: true });
      writeFileSync(join(fixture.outside, 'second-target.txt'), 'SECOND');
      const { linkSync } = await import('node:fs');
      linkSync(join(fixture.outside, 'second-target.txt'), join(fixture.root, 'hard2.txt'));
      const refused = await call(strict, 'read_text_file', { path: 'hard2.txt' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/hard links/);
    });

    it('narrows the allowed set to the client roots, at once when they change', async () => {
      const sub = join(fixture.root, 'sub');
      const client = await start({ roots: [{ uri: pathToFileURL(sub).href }] });
      expect((await call(client, 'list_allowed_directories', {})).text).toBe(`Allowed directories:\n${sub}`);
      expect((await call(client, 'read_text_file', { path: join(fixture.root, 'hello.txt') })).isError).toBe(true);
      expect((await call(client, 'read_text_file', { path: 'nested.txt' })).text).toContain('nested needle');
      await client.setRoots([{ uri: pathToFileURL(fixture.root).href }]);
      expect((await call(client, 'read_text_file', { path: join(fixture.root, 'hello.txt') })).isError).toBe(false);
      await client.setRoots([{ uri: pathToFileURL(fixture.outside).href }]);
      const outside = await call(client, 'read_text_file', { path: join(fixture.outside, 'secret.txt') });
      expect(outside.isError).toBe(true);
      expect(outside.text).toMatch(/do not overlap/);
    });

    // In 2025-11-25 the server lists the roots after initialization; in 2026-07-28 the read asks for them in rounds.
    it('narrows file:// resources to the client roots too', async () => {
      const sub = join(fixture.root, 'sub');
      const client = await start({ roots: [{ uri: pathToFileURL(sub).href }] });
      const nested = pathToFileURL(join(sub, 'nested.txt')).href;
      // Legacy: resources learn the roots from the roots listing that follows initialization; wait for it, up to
      // 10 s (it was 100 tries 20 ms apart: about 2 s).
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        const read = await client.client.readResource({ uri: nested }).catch(() => undefined);
        if (read) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await client.client.readResource({ uri: nested })).contents[0]).toMatchObject({
        text: expect.stringContaining('nested needle'),
      });
      await expect(
        client.client.readResource({ uri: pathToFileURL(join(fixture.root, 'hello.txt')).href }),
      ).rejects.toThrow(/Access denied/);
    });

    it('uses the client roots as the allowed set when started without directories', async () => {
      const client = await start({ directories: [], roots: [{ uri: pathToFileURL(fixture.outside).href }] });
      expect((await call(client, 'read_text_file', { path: 'secret.txt' })).text).toBe('TOP SECRET needle');
      expect((await call(client, 'read_text_file', { path: join(fixture.root, 'hello.txt') })).isError).toBe(true);
    });

    it('answers bad arguments with one readable sentence', async () => {
      const client = await start();
      const missing = await call(client, 'read_text_file', { path: 'nope.txt' });
      expect(missing).toMatchObject({ isError: true, text: 'nope.txt does not exist.' });
      const directory = await call(client, 'read_text_file', { path: 'sub' });
      expect(directory.text).toMatch(/is a directory/);
      const wrongType = await call(client, 'read_text_file', { path: 42 });
      expect(wrongType.isError).toBe(true);
      const notDirectory = await call(client, 'list_directory', { path: 'hello.txt' });
      expect(notDirectory.text).toMatch(/not a directory/);
      const nul = await call(client, 'read_text_file', { path: 'hello.txt\0' });
      expect(nul.isError).toBe(true);
      const forged = await call(client, 'search_files', { path: '.', pattern: '*', cursor: 'not-a-cursor' });
      expect(forged.text).toMatch(/cursor is not valid|cursor belongs to another call/);
      const badRegex = await call(client, 'grep', { pattern: '[', path: '.' });
      expect(badRegex.text).toMatch(/^The pattern is not a valid regular expression/);
    });
  });
}
