import { describe, expect, it } from 'vitest';
import { createServer } from '../create-server.js';
import { defineTool } from '../define-tool.js';
import { connectTestClient, resultText } from '../testing/index.js';
import type { Caller, Middleware, MiddlewareRequest } from './middleware.js';
import { allowTools, denyTools } from './tool-access.js';

const tools = ['read_file', 'write_file', 'drop_table'].map((name) =>
  defineTool({ name, description: `The ${name} tool.`, handler: () => `${name} ran` }),
);

/** Pretends every call comes with a token granting `scopes` (the kit sets caller.auth from a verified token). */
function withScopes(scopes: string[]): Middleware {
  return (request, next) => {
    const caller: Caller = { ...request.caller, auth: { clientId: 'test', scopes } };
    (request as { caller: Caller }).caller = caller;
    return next();
  };
}

async function names(middleware: Middleware[]) {
  const server = createServer({ name: 'guarded', version: '1', tools, middleware });
  const client = await connectTestClient(server);
  const listed = (await client.client.listTools()).tools.map((tool) => tool.name);
  const calls = await Promise.all(tools.map((tool) => client.callTool(tool.name)));
  await client.close();
  return { listed, ran: tools.filter((_, index) => !calls[index]?.isError).map((tool) => tool.name), calls };
}

describe('allowTools and denyTools', () => {
  it('allowTools lets everyone use what a list names, and says which scope another tool needs', async () => {
    const { listed, ran, calls } = await names([allowTools({ '*': ['read_*'], 'db:admin': ['drop_*'] })]);
    expect(listed).toEqual(['read_file']);
    expect(ran).toEqual(['read_file']);
    expect(resultText(calls[2] as never)).toBe('The tool "drop_table" needs a token with the scope "db:admin".');
    expect(resultText(calls[1] as never)).toBe('The tool "write_file" is not available on this server.');
  });

  it('allowTools opens more tools to a caller whose token has the scope', async () => {
    const { listed, ran } = await names([
      withScopes(['db:admin']),
      allowTools({ '*': ['read_*'], 'db:admin': ['drop_*'] }),
    ]);
    expect(listed).toEqual(['read_file', 'drop_table']);
    expect(ran).toEqual(['read_file', 'drop_table']);
  });

  it('denyTools hides and refuses what a rule names for the caller', async () => {
    expect((await names([denyTools(['drop_*'])])).ran).toEqual(['read_file', 'write_file']);
    const guest = await names([withScopes(['guest']), denyTools({ guest: ['write_*', 'drop_*'] })]);
    expect(guest.listed).toEqual(['read_file']);
    expect(guest.ran).toEqual(['read_file']);
    expect(resultText(guest.calls[1] as never)).toBe('The tool "write_file" is not available to this caller.');
    expect((await names([withScopes(['staff']), denyTools({ guest: ['write_*'] })])).ran).toHaveLength(3);
  });

  it('passes other methods through', async () => {
    const deny = denyTools(['*']);
    const request = {
      method: 'prompts/list',
      caller: { key: 'a', client: { supports: () => false } },
    } as unknown as MiddlewareRequest;
    expect(await deny(request, async () => ({ prompts: [] }))).toEqual({ prompts: [] });
  });
});
