import { describe, expect, it } from 'vitest';
import {
  defineSubcommand,
  helpText,
  parseHttpAddress,
  parseServerCommand,
  type ServerCommand,
  type ServerFlag,
} from './server-command.js';
import { UsageError } from './usage-error.js';

const command: ServerCommand<Record<string, ServerFlag>> = {
  name: 'mcpkit-example',
  version: '1.2.3',
  description: 'An example server.',
  positionals: 'DIR [DIR...]',
  flags: {
    write: { type: 'boolean', description: 'Allow writes' },
    'max-rows': { type: 'integer', description: 'Row cap', valueName: 'N' },
    label: { type: 'string', description: 'A label' },
  },
  environment: { EXAMPLE_HOME: 'Where the data lives' },
};

const ran: unknown[] = [];
const withSubcommands: ServerCommand<Record<string, ServerFlag>> = {
  ...command,
  subcommands: {
    index: defineSubcommand({
      description: 'Builds the index, then exits.',
      positionals: 'DIR [DIR...]',
      requirePositionals: true,
      flags: { 'max-file-size': { type: 'integer', description: 'Largest file', valueName: 'BYTES' } },
      run(parsed) {
        ran.push(parsed);
      },
    }),
  },
};

describe('parseServerCommand', () => {
  it('defaults to stdio at info level and reads the server flags and positionals', () => {
    const parsed = parseServerCommand(command, ['--write', '--max-rows', '50', '/data']);
    expect(parsed).toEqual({
      values: { write: true, 'max-rows': 50 },
      positionals: ['/data'],
      transport: { kind: 'stdio' },
      logLevel: 'info',
    });
  });

  it('reads --http with a token from the flag or the environment, origins and stateless mode', () => {
    const parsed = parseServerCommand(
      command,
      [
        '--http',
        '0.0.0.0:8080',
        '--allowed-origin',
        'https://a.example',
        '--allowed-origin',
        'https://b.example',
        '--stateless',
      ],
      { MCPKIT_TOKEN: 'from-env' },
    );
    expect(parsed).toMatchObject({
      transport: {
        kind: 'http',
        host: '0.0.0.0',
        port: 8080,
        token: 'from-env',
        allowedOrigins: ['https://a.example', 'https://b.example'],
        stateless: true,
      },
    });
    expect(parseServerCommand(command, ['--http', '9000', '--token', 'flag'], { MCPKIT_TOKEN: 'env' })).toMatchObject({
      transport: { kind: 'http', host: '127.0.0.1', port: 9000, token: 'flag' },
    });
  });

  it('reads --auth-* into resource-server options, with introspection credentials from the environment', () => {
    const argv = ['--http', '9000', '--auth-issuer', 'https://login.example', '--auth-scope', 'a', '--auth-scope', 'b'];
    expect(parseServerCommand(command, argv, { MCPKIT_TOKEN: 'ignored with auth' })).toMatchObject({
      transport: { kind: 'http', auth: { issuer: 'https://login.example', scopes: ['a', 'b'] } },
    });
    const withAudience = [...argv, '--auth-audience', 'https://mcp.example/mcp'];
    const environment = { MCPKIT_AUTH_CLIENT_ID: 'rs', MCPKIT_AUTH_CLIENT_SECRET: 'secret' };
    const parsed = parseServerCommand(command, withAudience, environment);
    expect(parsed).toMatchObject({
      transport: {
        auth: { audience: 'https://mcp.example/mcp', introspection: { clientId: 'rs', clientSecret: 'secret' } },
      },
    });
    expect(parsed).not.toHaveProperty('transport.token');
    expect(() => parseServerCommand(command, [...argv, '--token', 't'])).toThrow(/replaces --token/);
    expect(() => parseServerCommand(command, ['--http', '9000', '--auth-scope', 'a'])).toThrow(/need --auth-issuer/);
    expect(() => parseServerCommand(command, ['--auth-issuer', 'https://x.example'])).toThrow(/only apply with --http/);
    expect(() => parseServerCommand(command, ['--http', '9000', '--auth-issuer', 'nope'])).toThrow(/takes a URL/);
    expect(() => parseServerCommand(command, argv, { MCPKIT_AUTH_CLIENT_ID: 'rs' })).toThrow(/needs both/);
  });

  it('returns the help and version texts instead of a parse', () => {
    expect(parseServerCommand(command, ['--help'])).toEqual({ exit: helpText(command) });
    expect(parseServerCommand(command, ['-v'])).toEqual({ exit: '1.2.3\n' });
  });

  it('throws UsageError for an unknown flag, a bad value, or a flag out of place', () => {
    expect(() => parseServerCommand(command, ['--bogus'])).toThrow(UsageError);
    expect(() => parseServerCommand(command, ['--bogus'])).toThrow(/--bogus/);
    expect(() => parseServerCommand(command, ['--log-level', 'loud'])).toThrow(/--log-level takes one of debug, info/);
    expect(() => parseServerCommand(command, ['--token', 'x'])).toThrow(/only apply with --http/);
    expect(() => parseServerCommand(command, ['--http', 'nope'])).toThrow(/--http takes \[host:\]port/);
    expect(() => parseServerCommand({ ...command, requirePositionals: true }, [])).toThrow(/needs DIR \[DIR...\]/);
  });
});

describe('integer flags', () => {
  it('come back as numbers, and anything but a positive integer is a usage error naming the flag', () => {
    expect(parseServerCommand(command, ['--max-rows', '7'])).toMatchObject({ values: { 'max-rows': 7 } });
    for (const value of ['lots', '0', '-3', '1.5', '1e3', '', ' ', '99999999999999999999']) {
      expect(() => parseServerCommand(command, [`--max-rows=${value}`]), value).toThrow(
        new UsageError(`--max-rows takes a positive integer; got ${JSON.stringify(value)}.`),
      );
    }
    expect(parseServerCommand(command, ['--label', '12'])).toMatchObject({ values: { label: '12' } });
  });
});

describe('subcommands', () => {
  it('parse their own flags and positionals, and `serve` names serving explicitly', () => {
    expect(parseServerCommand(withSubcommands, ['index', '--max-file-size', '100', 'a', 'b'])).toEqual({
      subcommand: 'index',
      values: { 'max-file-size': 100 },
      positionals: ['a', 'b'],
    });
    expect(parseServerCommand(withSubcommands, ['serve', '--write', 'd'])).toMatchObject({
      values: { write: true },
      positionals: ['d'],
      transport: { kind: 'stdio' },
    });
    // without subcommands, `serve` is an ordinary positional; so is a name every object has
    expect(parseServerCommand(command, ['serve'])).toMatchObject({ positionals: ['serve'] });
    expect(parseServerCommand(withSubcommands, ['constructor'])).toMatchObject({ positionals: ['constructor'] });
  });

  it('refuse the serving flags, bad values and missing positionals with usage errors', () => {
    expect(() => parseServerCommand(withSubcommands, ['index', '--http', '80', 'a'])).toThrow(UsageError);
    expect(() => parseServerCommand(withSubcommands, ['index', '--max-file-size', 'big', 'a'])).toThrow(
      /--max-file-size takes a positive integer/,
    );
    expect(() => parseServerCommand(withSubcommands, ['index'])).toThrow(/mcpkit-example index needs DIR/);
  });

  it('have their own help, and the command help lists them', () => {
    const help = parseServerCommand(withSubcommands, ['index', '--help']);
    expect(help).toEqual({ exit: expect.stringMatching(/^mcpkit-example index: Builds the index, then exits\./) });
    expect((help as { exit: string }).exit).toContain('Usage: mcpkit-example index [options] DIR [DIR...]');
    expect((help as { exit: string }).exit).toContain('--max-file-size BYTES');
    expect((help as { exit: string }).exit).not.toContain('--http');
    const main = helpText(withSubcommands);
    expect(main).toContain('Usage: mcpkit-example [serve] [options] DIR [DIR...]');
    expect(main).toMatch(/Commands \(each has --help\):\n\s+mcpkit-example index DIR \[DIR\.\.\.\]\s+Builds the index/);
  });
});

describe('parseHttpAddress', () => {
  it('reads a port, host:port and [ipv6]:port', () => {
    expect(parseHttpAddress('8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseHttpAddress(':8080')).toEqual({ host: '127.0.0.1', port: 8080 });
    expect(parseHttpAddress('localhost:0')).toEqual({ host: 'localhost', port: 0 });
    expect(parseHttpAddress('[::1]:9000')).toEqual({ host: '::1', port: 9000 });
  });

  it('refuses out-of-range ports and junk', () => {
    for (const value of ['65536', 'host:', 'a:b', '', '-1'])
      expect(() => parseHttpAddress(value), value).toThrow(UsageError);
  });
});

describe('helpText', () => {
  it('lists the usage, every flag with its value name, and the environment', () => {
    const help = helpText(command);
    expect(help).toMatch(
      /^mcpkit-example 1\.2\.3: An example server\.\n\nUsage: mcpkit-example \[options\] DIR \[DIR\.\.\.\]\n/,
    );
    for (const line of [
      '--write',
      '--max-rows N',
      '--http [HOST:]PORT',
      '--token TOKEN',
      '--auth-issuer URL',
      '--auth-scope SCOPE',
      '-h, --help',
      '-v, --version',
    ]) {
      expect(help).toContain(line);
    }
    expect(help).toMatch(/Environment:\n\s+EXAMPLE_HOME\s+Where the data lives/);
  });
});
