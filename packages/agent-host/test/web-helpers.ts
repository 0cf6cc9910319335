import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { bin, workspace } from './cli-helpers.js';
import { fixturePath } from './helpers.js';

const candidates = ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/**
 * Finds Debian's chromium, installing it with apt-get when it is missing (as the database tests install PostgreSQL);
 * resolves with its path, or with why the browser tests are skipped when apt-get itself is not there.
 */
export function ensureChromium(): { path: string } | { skip: string } {
  const found = candidates.find((path) => existsSync(path));
  if (found) return { path: found };
  if (spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status !== 0) {
    return { skip: 'the web page tests need chromium, and apt-get is not available to install it' };
  }
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'chromium']]) {
    const result = spawnSync('apt-get', args, {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status}).`);
  }
  const installed = candidates.find((path) => existsSync(path));
  if (!installed) throw new Error('apt-get installed chromium, but no chromium binary was found.');
  return { path: installed };
}

/** Launches headless chromium (no sandbox: the tests run as root in a container). */
export function launchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
}

/** A running `mcpkit-host web`. */
export interface WebHost {
  url: string;
  port: number;
  token: string;
  child: ChildProcess;
  /** What it wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The web fixture server as a config entry, with a secret in its environment that the page must never show. */
export const webFixtureConfig = (secret: string) => ({
  mcpServers: {
    demo: {
      command: process.execPath,
      args: [fixturePath('web-server.mjs')],
      env: { DEMO_API_TOKEN: secret },
    },
  },
});

/** Starts `mcpkit-host web` on the web fixture with a scripted model, and waits for the address it prints. */
export function startWebHost(script: unknown, options: { args?: string[]; secret?: string } = {}): Promise<WebHost> {
  const cwd = workspace(webFixtureConfig(options.secret ?? 'sk-test-secret'), script);
  const environment: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_BASE_URL', 'ANTHROPIC_BASE_URL', 'MCPKIT_MODEL']) {
    delete environment[name];
  }
  const child = spawn(process.execPath, [bin, 'web', '-m', 'scripted:script.json', ...(options.args ?? [])], {
    cwd,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return new Promise((resolve, reject) => {
    child.once('close', (code) => reject(new Error(`mcpkit-host web ended (${code}) before serving:\n${stderr}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      const match = /^(http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))$/m.exec(stdout);
      if (!match) return;
      resolve({
        url: match[1] ?? '',
        port: Number(match[2]),
        token: match[3] ?? '',
        child,
        stderr: () => stderr,
        close: async () => {
          child.kill('SIGINT');
          await closed;
        },
      });
    });
  });
}
