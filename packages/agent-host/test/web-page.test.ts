/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
// biome-ignore-all lint/performance/useDomNodeTextContent: Playwright's locator.innerText() reads the text as shown, which is what these tests check.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureChromium, launchBrowser, startWebHost, type WebHost } from './web-helpers.js';

// The page of `mcpkit-host web` in a real browser (Debian's chromium), driven by the scripted model over the web
// fixture server. One browser for the file; each test starts its own host, since a script is played once.

const chromium = ensureChromium();
const skip = 'skip' in chromium ? chromium.skip : undefined;
if (skip) process.stderr.write(`Skipping the web page's browser tests: ${skip}.\n`);

describe.skipIf(skip !== undefined)('mcpkit-host web in a browser', () => {
  let browser: Browser;
  const hosts: WebHost[] = [];

  beforeAll(async () => {
    browser = await launchBrowser('path' in chromium ? chromium.path : '');
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(hosts.map((host) => host.close()));
  });

  async function open(script: unknown, secret?: string): Promise<{ page: Page; host: WebHost }> {
    const host = await startWebHost(script, secret ? { secret } : {});
    hosts.push(host);
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    // No tool output may open a dialog; if one does, the test sees it in the page's state below.
    page.on('dialog', (dialog) => {
      void page.evaluate(() => {
        (window as unknown as { __pwned: string }).__pwned = 'dialog';
      });
      void dialog.dismiss();
    });
    await page.goto(host.url);
    await page.locator('.server .state-ready').waitFor();
    return { page, host };
  }

  async function ask(page: Page, text: string): Promise<void> {
    await page.locator('#input').fill(text);
    await page.locator('#input').press('Enter');
  }

  it('streams the answer and shows parallel tool calls side by side with the servers panel, never a secret', async () => {
    const secret = 'sk-live-do-not-show-4242';
    const { page } = await open(
      {
        steps: [
          {
            toolCalls: [
              { name: 'demo__weather', arguments: { city: 'Lisbon' } },
              { name: 'demo__weather', arguments: { city: 'Oslo' } },
            ],
          },
          { text: 'Both are **sunny**:\n\n- {{tool_results}}' },
        ],
      },
      secret,
    );
    await expect(page.locator('.server').innerText()).resolves.toMatch(
      /demo\s+ready\s+modern era \(2026-07-28, stdio\)\s+6 tools/,
    );
    await ask(page, 'Weather in Lisbon and Oslo?');
    await page.locator('.message.user', { hasText: 'Weather in Lisbon and Oslo?' }).waitFor();
    const answer = page.locator('.message.assistant:not(.streaming) strong', { hasText: 'sunny' });
    await answer.waitFor();
    // Both calls of the turn sit in one step's row, next to each other.
    const calls = page.locator('.step[data-step="1"] .call');
    await expect(calls.count()).resolves.toBe(2);
    const [first, second] = [await calls.nth(0).boundingBox(), await calls.nth(1).boundingBox()];
    expect(first && second && Math.abs(first.y - second.y) < 2 && second.x > first.x).toBe(true);
    await expect(calls.nth(0).locator('.tool').innerText()).resolves.toBe('weather');
    await expect(calls.nth(0).locator('.arguments pre').innerText()).resolves.toBe('{\n  "city": "Lisbon"\n}');
    await expect(calls.nth(1).locator('.result').innerText()).resolves.toContain('Sunny in Oslo, 21 °C');
    await expect(calls.nth(0).locator('.duration').innerText()).resolves.toMatch(/^\d+ ms$/);
    await expect(page.locator('#stop').isDisabled()).resolves.toBe(true);
    // The config's secrets never reach the page (neither the DOM nor anything the stream carried).
    expect(await page.content()).not.toContain(secret);
  });

  it('asks for approval, then shows the server form, and the answers reach the tool', async () => {
    const { page } = await open({
      steps: [
        { toolCalls: [{ name: 'demo__book_table', arguments: { restaurant: 'Casa Ana' } }] },
        { text: '{{tool_results}}' },
      ],
    });
    await ask(page, 'Book a table at Casa Ana');
    const approval = page.locator('.question.approval');
    await approval.waitFor();
    await expect(approval.innerText()).resolves.toContain('demo / book_table');
    await expect(approval.locator('pre').innerText()).resolves.toContain('"restaurant": "Casa Ana"');
    // Keyboard: the first button has the focus; Enter allows the call once.
    await page.keyboard.press('Enter');
    const form = page.locator('.question.elicitation');
    await form.waitFor();
    await expect(approval.count()).resolves.toBe(0);
    await expect(form.innerText()).resolves.toContain('Who is the table at Casa Ana for?');
    await form.getByLabel('Name on the booking').fill('Ada');
    await form.locator('input[name="guests"]').fill('4');
    await form.locator('input[name="terrace"]').check();
    await form.getByRole('button', { name: 'Submit' }).click();
    await page
      .locator('.message.assistant', { hasText: 'Booked Casa Ana for Ada, 4 guests, on the terrace.' })
      .waitFor();
    await expect(page.locator('.question').count()).resolves.toBe(0);
  });

  it('shows a sampling request with what the server would send, and lets the person deny or allow it', async () => {
    const { page } = await open({
      steps: [
        {
          toolCalls: [{ name: 'demo__summarize', arguments: { text: 'first text' } }],
        },
        { toolCalls: [{ name: 'demo__summarize', arguments: { text: 'second text' } }] },
        { text: 'In short: tides.' },
        { text: '{{tool_results}}' },
      ],
    });
    await ask(page, 'Summarize twice');
    const request = page.locator('.question.sampling');
    await request.waitFor();
    await expect(request.innerText()).resolves.toContain('demo wants to use the model (at most 100 tokens)');
    await expect(request.innerText()).resolves.toContain('user: Summarize: first text');
    await request.getByRole('button', { name: 'Deny' }).click();
    await page
      .locator('.call.error', { hasText: 'The user declined the sampling request of server "demo".' })
      .waitFor();
    await request.waitFor();
    await expect(request.innerText()).resolves.toContain('Summarize: second text');
    await request.getByRole('button', { name: 'Allow' }).click();
    await page.locator('.message.assistant', { hasText: 'summary: In short: tides.' }).waitFor();
  });

  it('attaches a resource and a template to the next message, and sends a server prompt', async () => {
    const { page } = await open({ steps: [{ text: 'Got: {{user_message}}' }, { text: 'Prompted: {{user_message}}' }] });
    await page.locator('[data-resource="note://packing-list"] button').click();
    const template = page.locator('[data-template="note://cities/{city}"]');
    await template.locator('input[name="city"]').fill('Oslo');
    await template.locator('input[name="city"]').press('Enter');
    // Each attach is a request of its own: the list shows both once the second has been read.
    await page.locator('#attachments li').nth(1).waitFor();
    await expect(page.locator('#attachments li').allInnerTexts()).resolves.toEqual([
      '📎 note://packing-list',
      '📎 note://cities/Oslo',
    ]);
    await ask(page, 'What should I bring?');
    const answer = page.locator('.message.assistant', { hasText: 'Got:' });
    await answer.waitFor();
    await expect(answer.innerText()).resolves.toContain('Attached note://packing-list: Umbrella, sunglasses.');
    await expect(answer.innerText()).resolves.toContain('Attached note://cities/Oslo: Oslo has a harbour.');
    await expect(page.locator('.message.user .attachment').count()).resolves.toBe(2);
    await expect(page.locator('#attachments li').count()).resolves.toBe(0);
    const prompt = page.locator('[data-prompt="demo/plan_trip"]');
    await prompt.locator('input[name="city"]').fill('Rome');
    await prompt.getByRole('button', { name: 'Send prompt' }).click();
    await page.locator('.message.user', { hasText: 'Plan a trip to Rome.' }).waitFor();
    await page.locator('.message.assistant', { hasText: 'Prompted: Plan a trip to Rome.' }).waitFor();
  });

  it('renders an image result as an image, in light and dark', async () => {
    const { page } = await open({ steps: [{ toolCalls: [{ name: 'demo__picture' }] }, { text: 'A red square.' }] });
    await ask(page, 'Show me a picture');
    const image = page.locator('.call .result img');
    await image.waitFor();
    await expect(image.evaluate((node) => (node as HTMLImageElement).naturalWidth)).resolves.toBe(2);
    await expect(image.getAttribute('src')).resolves.toMatch(/^data:image\/png;base64,/);
    // The colours follow the system's setting.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(background()).resolves.toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(background()).resolves.toBe('rgb(21, 24, 28)');
  });

  it('stops a run: the call in flight is cancelled and the run ends at once', async () => {
    const { page } = await open({ steps: [{ toolCalls: [{ name: 'demo__slow' }] }, { text: 'never said' }] });
    await ask(page, 'Take your time');
    await page.locator('.call.running').waitFor();
    await expect(page.locator('#stop').isEnabled()).resolves.toBe(true);
    const started = Date.now();
    await page.keyboard.press('Escape');
    await page.locator('.message.assistant', { hasText: 'Stopped.' }).waitFor();
    // At once, against the tool's 60 s: the key, the stop request, the cancel, the event and the page's update get
    // 8 s on a loaded machine (they had 3 s).
    expect(Date.now() - started).toBeLessThan(8000);
    await page.locator('.call.error').waitFor();
    await expect(page.locator('#status').innerText()).resolves.toBe('Ready');
    await expect(page.locator('.message', { hasText: 'never said' }).count()).resolves.toBe(0);
  });

  it('renders markup from tool results and the model as text: no script, handler or javascript: link runs', async () => {
    const { page } = await open({
      steps: [
        { toolCalls: [{ name: 'demo__hostile' }] },
        {
          text: 'Result: <img src=x onerror="window.__pwned=\'answer\'"> [go](javascript:window.__pwned=2)\n\n{{tool_results}}',
        },
      ],
    });
    await ask(page, 'Try it');
    await page.locator('.message.assistant:not(.streaming)', { hasText: 'Result:' }).waitFor();
    await page.locator('.call:not(.running)').waitFor();
    // Give an image error handler every chance to run.
    await page.waitForTimeout(300);
    const state = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: string }).__pwned,
      scripts: [...document.scripts].map((script) => script.getAttribute('src')),
      handlers: document.querySelectorAll('[onerror], [onload], [onclick]').length,
      javascriptLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
      images: document.querySelectorAll('img').length,
      text: document.body.innerText,
    }));
    expect(state.pwned).toBeUndefined();
    expect(state.scripts).toEqual(['/assets/main.js']);
    expect(state.handlers).toBe(0);
    expect(state.javascriptLinks).toBe(0);
    expect(state.images).toBe(0);
    // The markup shows as the text it is; Markdown still renders.
    expect(state.text).toContain('<script>window.__pwned = "tool script"</script>');
    expect(state.text).toContain('<img src="x" onerror="window.__pwned = \'tool img\'">');
    expect(state.text).toContain('[image of type image/svg+xml not shown]');
    await expect(page.locator('.call .result strong', { hasText: 'bold' }).count()).resolves.toBe(1);
  });
});
