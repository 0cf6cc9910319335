import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../src/config/server-config.js';
import { connectHost, type Host } from '../src/host.js';
import { createAgent } from '../src/loop/agent.js';
import type { AgentEvent } from '../src/loop/agent-events.js';
import { startScriptedModel, wireProblems } from '../src/testing/index.js';
import { ToolIndex } from '../src/tool-search/tool-index.js';
import { searchToolsName } from '../src/tool-search/tool-selection.js';
// @ts-expect-error: a plain ES module of the fixtures, without types.
import { catalog } from './fixtures/many-tools/catalog.mjs';
import { fixturePath, isAlive } from './helpers.js';

const serverFile = fixturePath('many-tools/server.mjs');
const servers = (catalog() as Array<{ server: string }>).map(
  ({ server }): ServerConfig => ({
    name: server,
    transport: { kind: 'stdio', command: process.execPath, args: [serverFile, server], env: {} },
    tools: server === 'tracker' ? { pin: ['search_issue'] } : {},
    callTimeoutMs: 30_000,
    startupTimeoutMs: 60_000,
    disabled: false,
  }),
);

/** This test's generated servers (children of this process; other test files may run theirs at the same time). */
function serverProcesses(): Array<{ pid: number; group: number }> {
  const lines = execFileSync('ps', ['-eo', 'pid=,ppid=,pgid=,args='], { encoding: 'utf8' }).split('\n');
  return lines
    .filter((line) => line.includes(serverFile))
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([, parent]) => parent === process.pid)
    .map(([pid, , group]) => ({ pid: pid ?? 0, group: group ?? 0 }));
}

let host: Host;
let pids: number[] = [];

beforeAll(async () => {
  host = await connectHost({ servers }, { log: () => {} });
  pids = serverProcesses().map((each) => each.pid);
});

afterAll(async () => {
  await host?.close();
  // Every server ran in its own process group, and closing the host ended all of them.
  for (const pid of pids) expect(isAlive(pid)).toBe(false);
});

describe('tool search over 400 tools of 12 stdio servers', () => {
  it('connects all twelve, each in its own process group', () => {
    expect(host.failures).toEqual([]);
    expect(host.registry.size).toBe(400);
    const processes = serverProcesses();
    expect(processes).toHaveLength(12);
    for (const each of processes) expect(each.group).toBe(each.pid);
  });

  it('ranks the right tool first for plain requests', () => {
    const index = new ToolIndex(host.registry.list());
    const cases: Array<[string, string]> = [
      ['refund a charge', 'payments__create_refund'],
      ['open a pull request', 'code__create_pull_request'],
      ['schedule a meeting with attendees', 'calendar__create_event'],
      ['send a message to a channel', 'chat__create_message'],
      ['find issues about login', 'tracker__search_issue'],
      ['remove a label', 'tracker__delete_label'],
      ['change the priority of an issue', 'tracker__update_issue'],
      ['book a meeting room', 'calendar__create_room'],
      ['list log entries', 'monitoring__list_log_entry'],
      ['add a comment to an issue', 'tracker__create_comment'],
      ['show the deployments', 'cluster__list_deployment'],
      ['load csv files into a table', 'warehouse__create_load_job'],
    ];
    for (const [query, expected] of cases)
      expect([query, index.search(query, 1)[0]?.entry.modelName]).toEqual([query, expected]);
  });

  describe.each(['openai', 'anthropic'] as const)('with the scripted model over %s', (provider) => {
    it('finds the tool by search and calls it on the next step: three steps in all', async () => {
      await using scripted = await startScriptedModel([
        { toolCalls: [{ name: searchToolsName, arguments: { query: 'refund a charge', limit: 3 } }] },
        {
          toolCalls: [
            {
              name: 'payments__create_refund',
              arguments: { account_id: 'acct_1', charge_id: 'ch_42', amount: '12.00', reason: 'duplicate' },
            },
          ],
        },
        { text: 'Done: {{tool_results}}' },
      ]);
      const approvals: unknown[] = [];
      const agent = createAgent({
        host,
        model: scripted.model(provider),
        approve: async (request) => {
          approvals.push(request);
          return { allowed: true };
        },
      });
      expect(agent.tools.searching).toBe(true);
      const result = await agent.run('Refund charge ch_42 of account acct_1: it was charged twice.');
      expect(result.steps).toBe(3);
      expect(result.answer).toBe(
        'Done: payments.create_refund done: {"account_id":"acct_1","charge_id":"ch_42","amount":"12.00","reason":"duplicate"}',
      );

      const toolNames = (index: number): string[] =>
        (scripted.requests[index]?.body.tools ?? []).map((tool: { name?: string; function?: { name: string } }) =>
          provider === 'openai' ? tool.function?.name : tool.name,
        );
      // First request: search_tools and the pinned tool only, instead of 400 schemas.
      expect(toolNames(0)).toEqual([searchToolsName, 'tracker__search_issue']);
      // The search result names the right tool first; the next request offers the found tools with full schemas, in
      // registry order.
      const searchResult = JSON.stringify(scripted.requests[1]?.body.messages.at(-1));
      expect(searchResult).toMatch(
        /found for \\"refund a charge\\", best first.*\\n- payments__create_refund \(server payments\)/,
      );
      expect(toolNames(1)).toEqual([
        searchToolsName,
        'tracker__search_issue',
        'payments__get_refund',
        'payments__create_refund',
        'payments__update_refund',
      ]);
      const refund = scripted.requests[1]?.body.tools.find(
        (tool: { name?: string; function?: { name: string } }) =>
          (provider === 'openai' ? tool.function?.name : tool.name) === 'payments__create_refund',
      );
      const schema = provider === 'openai' ? refund.function.parameters : refund.input_schema;
      expect(Object.keys(schema.properties)).toEqual(['account_id', 'charge_id', 'amount', 'reason']);
      // The approval callback decided on the server's tool (not on search_tools), with its annotations.
      expect(approvals).toEqual([
        {
          server: 'payments',
          tool: 'create_refund',
          modelName: 'payments__create_refund',
          arguments: { account_id: 'acct_1', charge_id: 'ch_42', amount: '12.00', reason: 'duplicate' },
          annotations: { readOnlyHint: false, destructiveHint: false },
        },
      ]);
      for (const request of scripted.requests) expect(wireProblems(request, { calledToolsListed: true })).toEqual([]);
    });

    it('gives the model a refusal it can read when the callback refuses, and the call never runs', async () => {
      await using scripted = await startScriptedModel([
        { toolCalls: [{ name: 'cluster__delete_secret', arguments: { secret_id: 'db-password' } }] },
        { text: '{{tool_results}}' },
      ]);
      const agent = createAgent({
        host,
        model: scripted.model(provider),
        approve: async (request) =>
          request.annotations?.destructiveHint
            ? { allowed: false, message: `Not run: the user keeps ${request.tool} for themselves.` }
            : { allowed: true },
      });
      const events: AgentEvent[] = [];
      agent.subscribe((event) => events.push(event));
      const result = await agent.run('Delete the db-password secret.');
      expect(result.answer).toBe('Not run: the user keeps delete_secret for themselves.');
      expect(events.find((event) => event.type === 'tool-call-end')).toMatchObject({ isError: true, refused: true });
      // A tool called by a name the model knew without searching is loaded from then on, so the history stays valid.
      expect(agent.tools.loadedNames).toEqual(['cluster__delete_secret']);
      for (const request of scripted.requests) expect(wireProblems(request, { calledToolsListed: true })).toEqual([]);
    });

    it('cuts an oversized result for the model with a note naming the paging arguments, and keeps it whole in the event', async () => {
      await using scripted = await startScriptedModel([
        { toolCalls: [{ name: 'monitoring__list_log_entry', arguments: { service: 'api', limit: 1000 } }] },
        { text: '{{tool_results}}' },
      ]);
      const agent = createAgent({ host, model: scripted.model(provider), maxResultTokens: 2000 });
      const events: AgentEvent[] = [];
      agent.subscribe((event) => events.push(event));
      const result = await agent.run('What did the api log?');
      const lines = result.answer.split('\n');
      const note = lines.at(-1) ?? '';
      const shown = lines.slice(0, -1).filter((line) => line !== '');
      expect(shown.at(-1)).toMatch(/^log_entry \d+: created 2026-11-\d\d, owner user\d$/);
      expect(note).toMatch(
        new RegExp(
          `^\\[cut by the host: this result is about [\\d,]+ tokens, over the limit of 2,000 tokens per result\\. ` +
            `Shown: [\\d,]+ of [\\d,]+ characters of text, through line ${shown.length} of 1,000\\. ` +
            'To get the rest, call monitoring__list_log_entry again with its paging arguments \\(limit, cursor\\)',
        ),
      );
      const end = events.find((event) => event.type === 'tool-call-end');
      expect(end?.type === 'tool-call-end' && end.cut).toMatchObject({ maxTokens: 2000 });
      const whole = end?.type === 'tool-call-end' ? end.result : undefined;
      const wholeText = ((whole?.content ?? []) as Array<{ text: string }>)[0]?.text ?? '';
      expect(wholeText.split('\n')).toHaveLength(1000);
      for (const request of scripted.requests) expect(wireProblems(request, { calledToolsListed: true })).toEqual([]);
    });
  });

  it('refuses a call whose approval callback fails, so that the call still gets exactly one result', async () => {
    await using scripted = await startScriptedModel([
      { toolCalls: [{ name: 'crm__delete_deal', arguments: { deal_id: 'deal_1' } }] },
      { text: '{{tool_results}}' },
    ]);
    const agent = createAgent({
      host,
      model: scripted.model('openai'),
      approve: async () => {
        throw new Error('the approval service is down');
      },
    });
    const result = await agent.run('Delete deal_1.');
    expect(result.answer).toBe('Not run: the approval check failed (the approval service is down).');
  });

  it('cancelling a run withdraws a pending approval question, and the call is not run', async () => {
    await using scripted = await startScriptedModel([
      { toolCalls: [{ name: 'crm__delete_deal', arguments: { deal_id: 'deal_2' } }] },
    ]);
    const asked: string[] = [];
    const agent = createAgent({
      host,
      model: scripted.model('anthropic'),
      // A UI's question that nobody answers: it closes when the run's signal aborts.
      approve: (request) =>
        new Promise((resolve) => {
          asked.push(request.tool);
          request.signal?.addEventListener('abort', () => resolve({ allowed: false, message: 'withdrawn' }));
        }),
    });
    const controller = new AbortController();
    agent.subscribe((event) => {
      if (event.type === 'tool-call-start') setTimeout(() => controller.abort(), 50);
    });
    const result = await agent.run('Delete deal_2.', { signal: controller.signal });
    expect(asked).toEqual(['delete_deal']);
    expect(result.stoppedBy).toBe('cancelled');
    const toolMessage = result.messages.at(-1);
    expect(toolMessage?.role === 'tool' && toolMessage.results[0]?.content).toEqual([
      { type: 'text', text: 'Not run: the run was cancelled.' },
    ]);
  });

  it('offers every tool with --tool-search never, and search only above the threshold under auto', async () => {
    await using scripted = await startScriptedModel([{ text: 'ok' }, { text: 'ok' }]);
    await createAgent({ host, model: scripted.model('anthropic'), toolSearch: 'never' }).run('hi');
    expect(scripted.requests[0]?.body.tools).toHaveLength(400);
    expect(
      wireProblems(scripted.requests[0] ?? { format: 'anthropic', body: {} }, { calledToolsListed: true }),
    ).toEqual([]);
    const below = createAgent({ host, model: scripted.model('anthropic'), toolSearchThreshold: 400 });
    expect(below.tools.searching).toBe(false);
  });
});
