import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { ToolContext } from './context.js';
import { defineTool } from './define-tool.js';
import { ToolError } from './errors.js';
import { createLogger } from './logger.js';
import { Registry } from './registry.js';
import { runTool } from './run-tool.js';

function registered(handler: (input: { text: string }) => unknown) {
  const registry = new Registry();
  registry.addTool(
    defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({ text: z.string() }),
      handler: handler as never,
    }),
  );
  return registry.tools.get('echo') as NonNullable<ReturnType<Registry['tools']['get']>>;
}

const context = { signal: new AbortController().signal } as ToolContext;
const options = { budget: 1000, log: createLogger(() => {}) };

describe('runTool', () => {
  it('answers a synchronous handler synchronously: no promise on the common path (ADR 0011)', () => {
    const contextOf = vi.fn(() => context);
    const result = runTool(
      registered(({ text }) => text),
      { text: 'hi' },
      options,
      contextOf,
      'source',
    );
    expect(result).not.toBeInstanceOf(Promise);
    expect(result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(contextOf).toHaveBeenCalledWith('source');
  });

  it('answers an asynchronous handler with a promise of the same result', async () => {
    const result = runTool(
      registered(async ({ text }) => text),
      { text: 'hi' },
      options,
      () => context,
      undefined,
    );
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toEqual({ content: [{ type: 'text', text: 'hi' }] });
  });

  it('holds an error sentence to the budget: a ToolError quoting a huge value is cut and says so', async () => {
    const huge = `No row matches ${'x'.repeat(1_000_000)}.`;
    for (const handler of [
      () => {
        throw new ToolError(huge);
      },
      async () => {
        throw new ToolError(huge);
      },
    ]) {
      const result = await runTool(registered(handler), { text: 'hi' }, options, () => context, undefined);
      const text = (result.content[0] as { text: string }).text;
      expect(result.isError).toBe(true);
      expect(text.length).toBeLessThanOrEqual(options.budget);
      expect(text).toMatch(/^No row matches x+/);
      const note = /\[the message was cut: showed ([\d,]+) of 1,000,016 characters\]$/.exec(text);
      expect(note).not.toBeNull();
      const shown = Number(note?.[1]?.replaceAll(',', ''));
      expect(shown).toBeGreaterThan(800);
      expect(text).toBe(`${huge.slice(0, shown)} ${note?.[0]}`);
    }
    // A sentence within the budget is left as it is.
    const short = await runTool(
      registered(() => {
        throw new ToolError('No row matches.');
      }),
      { text: 'hi' },
      options,
      () => context,
      undefined,
    );
    expect(short).toEqual({ content: [{ type: 'text', text: 'No row matches.' }], isError: true });
  });

  it('builds no context for arguments that fail the schema', () => {
    const contextOf = vi.fn(() => context);
    const result = runTool(
      registered(({ text }) => text),
      { text: 1 },
      options,
      contextOf,
      undefined,
    );
    expect(result).toMatchObject({ isError: true });
    expect(contextOf).not.toHaveBeenCalled();
  });

  it('does not run the handler of a call cancelled before it started', async () => {
    const controller = new AbortController();
    controller.abort();
    const handler = vi.fn(({ text }: { text: string }) => text);
    const aborted = { signal: controller.signal } as ToolContext;
    const result = runTool(registered(handler), { text: 'hi' }, options, () => aborted, undefined);
    expect(await result).toEqual({
      content: [{ type: 'text', text: 'The call to "echo" was cancelled before it finished.' }],
      isError: true,
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('turns a synchronous throw and a rejection alike into error results', async () => {
    const thrown = runTool(
      registered(() => {
        throw new ToolError('no such thing');
      }),
      { text: 'x' },
      options,
      () => context,
      undefined,
    );
    expect(thrown).toEqual({ content: [{ type: 'text', text: 'no such thing' }], isError: true });
    const rejected = await runTool(
      registered(async () => {
        throw new ToolError('no such thing');
      }),
      { text: 'x' },
      options,
      () => context,
      undefined,
    );
    expect(rejected).toEqual(thrown);
  });
});
