import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { createServer } from './create-server.js';
import { definePrompt } from './define-prompt.js';
import { defineTool } from './define-tool.js';
import { ToolError } from './errors.js';
import { decodeCursor, encodeCursor, paginate } from './pagination.js';
import { connectTestClient } from './testing/index.js';

describe('paginate', () => {
  const items = Array.from({ length: 7 }, (_, index) => index);

  it('walks a list page by page with opaque cursors and stops without one', () => {
    const first = paginate(items, undefined, 3);
    expect(first.items).toEqual([0, 1, 2]);
    const second = paginate(items, first.nextCursor, 3);
    expect(second.items).toEqual([3, 4, 5]);
    const last = paginate(items, second.nextCursor, 3);
    expect(last).toEqual({ items: [6] });
  });

  it('round-trips cursor state', () => {
    expect(decodeCursor(encodeCursor({ offset: 5, table: 'users' }))).toEqual({ offset: 5, table: 'users' });
  });

  it('refuses a forged or garbled cursor with a ToolError the model can act on', () => {
    for (const cursor of ['not base64 at all!', encodeCursor({ offset: -1 }), encodeCursor({ offset: 'x' }), 'W10']) {
      expect(() => paginate(items, cursor, 3)).toThrow(ToolError);
    }
    expect(() => decodeCursor('W10')).toThrow(/nextCursor of an earlier answer/);
  });
});

describe('list pagination on a server', () => {
  const tools = Array.from({ length: 5 }, (_, index) =>
    defineTool({ name: `tool_${index}`, description: `Tool ${index}.`, handler: () => String(index) }),
  );
  const prompts = Array.from({ length: 3 }, (_, index) =>
    definePrompt({ name: `prompt_${index}`, description: 'p', render: () => 'x' }),
  );

  it('pages tools/list and prompts/list by the server page size', async () => {
    await using client = await connectTestClient(
      createServer({ name: 't', version: '1', tools, prompts, pageSize: 2 }),
    );
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.client.listTools(cursor ? { cursor } : {});
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(names).toEqual(['tool_0', 'tool_1', 'tool_2', 'tool_3', 'tool_4']);
    const firstPrompts = await client.client.listPrompts();
    expect(firstPrompts.prompts).toHaveLength(2);
    expect(firstPrompts.nextCursor).toBeDefined();
  });

  it('answers a bad cursor with JSON-RPC invalid params', async () => {
    await using client = await connectTestClient(createServer({ name: 't', version: '1', tools, pageSize: 2 }));
    const error = await client.client.listTools({ cursor: 'garbage' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
  });
});
