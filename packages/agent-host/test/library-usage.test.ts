// The library example of docs/host.md, run for real. The guide copies the `library` region below; the second test
// fails when the guide's copy is out of date (node scripts/tools/sync-snippets.mjs docs/host.md rewrites it).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { syncSnippets } from '../../../scripts/tools/sync-snippets.mjs';
import { type AgentEvent, connectHost, createAgent, parseConfig } from '../src/index.js';
import { startScriptedModel } from '../src/testing/index.js';
import { fixturePath } from './helpers.js';

const notesServer = fixturePath('echo-server.mjs');

it('loads a config object, connects, runs a scripted question and reports events', async () => {
  // #region library
  // A config object in any supported format (here Claude Desktop's).
  const config = await parseConfig({
    mcpServers: { notes: { command: process.execPath, args: [notesServer, 'notes'] } },
  });

  // Every server starts at once; host.failures lists the ones that did not.
  const host = await connectHost(config, { log: (server, line) => process.stderr.write(`[${server}] ${line}\n`) });

  // A model: here the scripted one, playing two parallel calls and then the answer.
  const scripted = await startScriptedModel({
    provider: 'anthropic',
    steps: [
      {
        toolCalls: [
          { name: 'notes__echo', arguments: { text: 'first' } },
          { name: 'notes__echo', arguments: { text: 'second' } },
        ],
      },
      { text: 'The notes said: {{tool_results}}' },
    ],
  });

  // The loop, with a listener such as a UI would have.
  const agent = createAgent({ host, model: scripted.model(), maxSteps: 5 });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => {
    events.push(event); // step-start, model-response, tool-call-start/-end (with durationMs), step-end, answer
  });
  const result = await agent.run('What do the notes say?'); // { answer, stoppedBy, steps, usage, messages }

  await host.close(); // ends every stdio server's whole process group
  await scripted.close();
  // #endregion library

  expect(host.failures).toEqual([]);
  expect(result.answer).toBe('The notes said: notes: first\nnotes: second');
  const ends = events.filter((event) => event.type === 'tool-call-end');
  expect(ends.map((event) => event.type === 'tool-call-end' && event.text).sort()).toEqual([
    'notes: first',
    'notes: second',
  ]);
  expect(events.at(-1)).toMatchObject({ type: 'answer', stoppedBy: 'answer', steps: 2 });
});

it('is what docs/host.md shows', () => {
  const guide = readFileSync(fileURLToPath(new URL('../../../docs/host.md', import.meta.url)), 'utf8');
  expect(guide).toContain('<!-- snippet: packages/agent-host/test/library-usage.test.ts#library -->');
  expect(syncSnippets(guide).stale).toEqual([]);
});
