#!/usr/bin/env node
// Writes the screenshots of `mcpkit-host web` that docs/host.md shows (docs/images/host-web-*.png): a run with
// parallel tool calls and an image in light and dark, then an approval and a server's form. It drives the built
// host (build the package first) with a scripted model over the browser tests' fixture server, in Debian's chromium
// (apt-get install chromium).
//   node packages/agent-host/scripts/web-screenshots.mjs
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const images = fileURLToPath(new URL('../../../docs/images/', import.meta.url));
const browserPath = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((path) => existsSync(path));
if (!browserPath) throw new Error('No chromium found: apt-get install chromium (or run the web browser tests once).');

const directory = mkdtempSync(join(tmpdir(), 'mcpkit-web-screenshots-'));
writeFileSync(
  join(directory, 'mcp.json'),
  JSON.stringify({
    mcpServers: {
      demo: { command: process.execPath, args: [join(packageRoot, 'test/fixtures/web-server.mjs')] },
    },
  }),
);
writeFileSync(
  join(directory, 'script.json'),
  JSON.stringify({
    steps: [
      {
        text: 'Looking up both cities at once.',
        toolCalls: [
          { name: 'demo__weather', arguments: { city: 'Lisbon' } },
          { name: 'demo__weather', arguments: { city: 'Oslo' } },
          { name: 'demo__picture', arguments: {} },
        ],
      },
      {
        text: '## Weather\n\nBoth cities are **sunny** today:\n\n- Lisbon: 21 °C\n- Oslo: 21 °C\n\nThe red square is attached.',
      },
      { toolCalls: [{ name: 'demo__book_table', arguments: { restaurant: 'Casa Ana' } }] },
      { text: '{{tool_results}}' },
    ],
  }),
);

const host = spawn(
  process.execPath,
  [join(packageRoot, 'bin/mcpkit-host.js'), 'web', '-m', 'scripted:script.json', '-q'],
  {
    cwd: directory,
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const url = await new Promise((resolve, reject) => {
  let output = '';
  host.once('close', (code) => reject(new Error(`mcpkit-host web ended (${code})`)));
  host.stdout.on('data', (chunk) => {
    output += chunk;
    const match = /^http:\/\/\S+$/m.exec(output);
    if (match) resolve(match[0]);
  });
});

const browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 820 }, deviceScaleFactor: 1 });
  page.setDefaultTimeout(15_000);
  await page.goto(url);
  await page.locator('.server .state-ready').waitFor();
  const ask = async (text) => {
    await page.locator('#input').fill(text);
    await page.locator('#input').press('Enter');
  };
  mkdirSync(images, { recursive: true });
  const shoot = async (name) => {
    await page.screenshot({ path: join(images, `host-web-${name}.png`) });
    process.stderr.write(`wrote docs/images/host-web-${name}.png\n`);
  };
  await ask('What is the weather in Lisbon and Oslo? And show me the picture.');
  await page.locator('.message.assistant:not(.streaming) h4').waitFor();
  await page.locator('.call .result img').waitFor();
  await page.mouse.move(0, 0);
  await shoot('light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot('dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await ask('Book a table at Casa Ana for four.');
  await page.locator('.question.approval').waitFor();
  await shoot('approval');
  await page.locator('.question.approval button.primary').click();
  const form = page.locator('.question.elicitation');
  await form.waitFor();
  await form.locator('input[name="name"]').fill('Ada');
  await form.locator('input[name="guests"]').fill('4');
  await shoot('form');
} finally {
  await browser.close();
  host.kill('SIGINT');
}
