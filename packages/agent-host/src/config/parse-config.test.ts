// biome-ignore-all lint/suspicious/noTemplateCurlyInString: configs spell ${...} references literally.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from './parse-config.js';

const environment = { TOKEN: 'secret', HOME_DB: '/data/app.db' };

describe('parseConfig', () => {
  it('reads Claude Desktop / Cursor mcpServers with stdio and URL servers and mcpkit extras', async () => {
    const config = await parseConfig(
      {
        mcpServers: {
          db: {
            command: 'npx',
            args: ['-y', 'db-server', '${env:HOME_DB}'],
            env: { API_TOKEN: '${TOKEN}', MODE: '${MODE:-read}' },
            timeout: 5000,
            tools: { allow: ['query'], deny: ['drop_*'] },
          },
          web: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
          legacy: { type: 'sse', url: 'https://example.com/sse' },
          off: { command: 'x', disabled: true },
        },
      },
      { file: 'claude.json', environment },
    );
    expect(config.servers.map((server) => server.name)).toEqual(['db', 'web', 'legacy', 'off']);
    expect(config.servers[0]).toMatchObject({
      transport: {
        kind: 'stdio',
        command: 'npx',
        args: ['-y', 'db-server', '/data/app.db'],
        env: { API_TOKEN: 'secret', MODE: 'read' },
      },
      callTimeoutMs: 5000,
      tools: { allow: ['query'], deny: ['drop_*'] },
      disabled: false,
    });
    expect(config.servers[1]?.transport).toEqual({
      kind: 'http',
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer secret' },
      mode: 'auto',
    });
    expect(config.servers[2]?.transport).toMatchObject({ mode: 'sse' });
    expect(config.servers[3]?.disabled).toBe(true);
  });

  it("reads an HTTP server's oauth block: Claude Code's clientId and callbackPort, a secret from the environment", async () => {
    const config = await parseConfig(
      {
        mcpServers: {
          notes: {
            url: 'https://notes.example.com/mcp',
            oauth: {
              clientId: 'host',
              clientSecret: '${env:TOKEN}',
              scopes: 'notes:read notes:write',
              callbackPort: 8765,
            },
          },
          cimd: {
            url: 'https://cimd.example.com/mcp',
            oauth: { clientMetadataUrl: 'https://host.example/client.json' },
          },
        },
      },
      { environment },
    );
    expect(config.servers[0]?.oauth).toEqual({
      clientId: 'host',
      clientSecret: 'secret',
      scopes: ['notes:read', 'notes:write'],
      redirectPort: 8765,
    });
    expect(config.servers[1]?.oauth).toEqual({ clientMetadataUrl: 'https://host.example/client.json' });
    await expect(
      parseConfig({
        mcpServers: { bad: { url: 'https://x.example/mcp', oauth: { clientMetadataUrl: 'http://x/c' } } },
      }),
    ).rejects.toThrow(/server "bad": field "oauth.clientMetadataUrl"/);
    await expect(
      parseConfig({ mcpServers: { bad: { url: 'https://x.example/mcp', oauth: { clientID: 'typo' } } } }),
    ).rejects.toThrow(/server "bad"/);
    await expect(
      parseConfig({
        mcpServers: {
          bad: { url: 'https://x.example/mcp', oauth: { grantType: 'client_credentials', clientId: 'x' } },
        },
      }),
    ).rejects.toThrow(
      /field "oauth.grantType": the client_credentials grant needs clientId and clientSecret or privateKey/,
    );
  });

  it('reads VS Code servers with inputs, asking only for the inputs that are used', async () => {
    const asked: string[] = [];
    const config = await parseConfig(
      {
        inputs: [
          { type: 'promptString', id: 'api-key', description: 'API key', password: true },
          { type: 'promptString', id: 'unused', description: 'Never used' },
        ],
        servers: {
          github: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: '${input:api-key}' } },
          files: { type: 'stdio', command: 'node', args: ['${workspaceFolder}/server.js'] },
        },
      },
      {
        file: '.vscode/mcp.json',
        environment,
        workspaceFolder: '/project',
        resolveInput: async (input) => {
          asked.push(input.id);
          return 'key-123';
        },
      },
    );
    expect(asked).toEqual(['api-key']);
    expect(config.servers[0]?.transport).toMatchObject({ headers: { Authorization: 'key-123' } });
    expect(config.servers[1]?.transport).toMatchObject({ args: ['/project/server.js'] });
  });

  it.each([
    [{ mcpServers: { db: { command: 42 } } }, /^mcp\.json: server "db": field "command": .*string/],
    [{ mcpServers: { db: { command: 'x', args: 'not-a-list' } } }, /server "db": field "args"/],
    [{ mcpServers: { db: { command: 'x', env: { A: 1 } } } }, /server "db": field "env\.A"/],
    [{ mcpServers: { web: { url: 'not a url' } } }, /server "web": field "url"/],
    [{ mcpServers: { db: { args: [] } } }, /server "db": needs "command" \(a stdio server\) or "url"/],
    [{ mcpServers: { db: { command: 'x', timeout: -1 } } }, /server "db": field "timeout"/],
    [{ mcpServers: { db: { command: 'x', tools: { allow: 'query' } } } }, /server "db": field "tools\.allow"/],
    [{ mcpServers: { db: 'npx db' } }, /^mcp\.json: server "db": must be an object/],
    [{ mcpServers: [] }, /field "mcpServers" must be an object/],
    [{ something: {} }, /has neither "mcpServers".*nor "servers"/],
    [{ servers: { a: { command: 'x', args: ['${input:key}'] } } }, /input "key", which "inputs" does not declare/],
  ])('names the file, server and field of a malformed config (%#)', async (json, message) => {
    await expect(parseConfig(json, { file: 'mcp.json', environment: {} })).rejects.toThrow(message);
  });

  it('takes input values from --input, then MCPKIT_INPUT_<ID>, then the person, then the default', async () => {
    const json = {
      inputs: [
        { type: 'promptString', id: 'api-key', description: 'The key' },
        { type: 'promptString', id: 'region', default: 'eu' },
        { type: 'promptString', id: 'user' },
      ],
      servers: { a: { command: 'x', args: ['${input:api-key}', '${input:region}', '${input:user}'] } },
    };
    const asked: string[] = [];
    const resolveInput = async (input: { id: string }) => {
      asked.push(input.id);
      return input.id === 'user' ? 'asked' : undefined;
    };
    const fromEnvironment = await parseConfig(json, {
      file: 'mcp.json',
      environment: { MCPKIT_INPUT_API_KEY: 'from-env' },
      resolveInput,
    });
    expect(fromEnvironment.servers[0]?.transport).toMatchObject({ args: ['from-env', 'eu', 'asked'] });
    expect(asked).toEqual(['region', 'user']);
    const fromFlag = await parseConfig(json, {
      file: 'mcp.json',
      environment: { MCPKIT_INPUT_API_KEY: 'from-env', MCPKIT_INPUT_USER: 'env-user' },
      inputValues: { 'api-key': 'from-flag' },
    });
    expect(fromFlag.servers[0]?.transport).toMatchObject({ args: ['from-flag', 'eu', 'env-user'] });
  });

  it('leaves out only the server whose variable or input has no value, saying which and how to give it', async () => {
    const json = {
      inputs: [{ type: 'promptString', id: 'key', description: 'The key' }],
      servers: {
        a: { command: 'x', env: { KEY: '${input:key}' } },
        b: { command: '${env:NOPE}' },
        c: { command: 'c' },
        d: { command: '${env:NOPE}', disabled: true },
      },
    };
    const config = await parseConfig(json, { file: 'mcp.json', environment: {} });
    expect(config.servers.map((server) => server.name)).toEqual(['c']);
    expect(config.problems).toEqual([
      {
        server: 'a',
        message:
          'mcp.json: server "a": input "key" (The key) needs a value: set MCPKIT_INPUT_KEY, pass --input key=VALUE, ' +
          'or run at a terminal to be asked. Server "a" is not started.',
      },
      {
        server: 'b',
        message:
          'mcp.json: server "b": field "command": environment variable NOPE is not set. Server "b" is not started.',
      },
    ]);
  });

  it("expands Cursor's ${workspaceFolderBasename}, ${pathSeparator} and ${/}", async () => {
    const json = { mcpServers: { a: { command: 'x', args: ['${workspaceFolderBasename}${pathSeparator}a${/}b'] } } };
    const config = await parseConfig(json, { file: 'mcp.json', workspaceFolder: join('/work', 'project') });
    expect(config.servers[0]?.transport).toMatchObject({ args: [['project', 'a', 'b'].join(sep)] });
  });
});

describe('parseConfig with only some servers', () => {
  it('reads only the servers named, asking no input and checking no field of the others', async () => {
    const asked: string[] = [];
    const json = {
      inputs: [{ type: 'promptString', id: 'key', description: 'The key' }],
      servers: {
        a: { command: 'a', env: { KEY: '${input:key}' } },
        b: { command: 'b', args: 'not-a-list' },
        c: { command: 'c' },
      },
    };
    const resolveInput = async (input: { id: string }) => {
      asked.push(input.id);
      return 'value';
    };
    const config = await parseConfig(json, { file: 'mcp.json', only: ['c'], resolveInput });
    expect(config.servers.map((server) => server.name)).toEqual(['c']);
    expect(asked).toEqual([]);
    await expect(parseConfig(json, { file: 'mcp.json', only: ['z'] })).rejects.toMatchObject({
      code: 'UNKNOWN_SERVER',
      message: 'mcp.json has no server "z" (its servers: a, b, c).',
    });
  });
});

describe('parseConfig roots', () => {
  it('gives each server its own roots, else the top-level ones, else none, relative to the workspace folder', async () => {
    const json = {
      roots: ['data', '${env:HOME_DB}'],
      mcpServers: { a: { command: 'a' }, b: { command: 'b', roots: ['${workspaceFolder}/b'] } },
    };
    const config = await parseConfig(json, { file: 'mcp.json', workspaceFolder: '/project', environment });
    expect(config.servers.map((server) => server.roots)).toEqual([['/project/data', '/data/app.db'], ['/project/b']]);
    const bare = await parseConfig({ mcpServers: { a: { command: 'a' } } }, { file: 'mcp.json' });
    expect(bare.servers[0]).not.toHaveProperty('roots');
    await expect(parseConfig({ roots: 'data', mcpServers: {} }, { file: 'mcp.json' })).rejects.toThrow(
      /^mcp\.json: roots: /,
    );
  });
});

describe('parseConfig with an envFile', () => {
  it('gives a stdio server the variables of its envFile, relative to the workspace, env winning', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'mcpkit-envfile-'));
    writeFileSync(
      join(folder, '.env'),
      '# secrets\nexport TOKEN="abc def"\nMODE=read # inline comment\nEMPTY=\nSINGLE=\'x=y\'\nOVERRIDE=file\n',
    );
    const config = await parseConfig(
      {
        servers: { db: { type: 'stdio', command: 'db', envFile: '${workspaceFolder}/.env', env: { OVERRIDE: 'env' } } },
      },
      { file: 'mcp.json', workspaceFolder: folder, environment: {} },
    );
    expect(config.servers[0]?.transport).toMatchObject({
      env: { TOKEN: 'abc def', MODE: 'read', EMPTY: '', SINGLE: 'x=y', OVERRIDE: 'env' },
    });
    await expect(
      parseConfig(
        { servers: { db: { command: 'db', envFile: 'missing.env' } } },
        { file: 'mcp.json', workspaceFolder: folder },
      ),
    ).rejects.toThrow(/^mcp\.json: server "db": field "envFile": cannot read .*missing\.env\.$/);
  });

  it('reads tools.pin and approve (one policy, or policies by tool name), and refuses an unknown policy', async () => {
    const config = await parseConfig({
      mcpServers: {
        db: { command: 'db', tools: { pin: ['query'] }, approve: { query: 'allow', '*': 'always-ask' } },
        files: { command: 'files', approve: 'read-only' },
      },
    });
    expect(config.servers[0]).toMatchObject({
      tools: { pin: ['query'] },
      approve: { query: 'allow', '*': 'always-ask' },
    });
    expect(config.servers[1]?.approve).toBe('read-only');
    await expect(parseConfig({ mcpServers: { db: { command: 'db', approve: 'sometimes' } } })).rejects.toThrow(
      /server "db": field "approve"/,
    );
  });
});
