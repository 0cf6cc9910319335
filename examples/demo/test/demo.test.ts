import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '@mcpkit/agent-host';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoResult, runDemo } from '../src/run-demo.js';

type ToolEnd = Extract<AgentEvent, { type: 'tool-call-end' }>;

function toolEnds(events: AgentEvent[]): ToolEnd[] {
  return events.filter((event): event is ToolEnd => event.type === 'tool-call-end');
}

function calls(events: AgentEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'tool-call-start' ? [`${event.server}.${event.tool}`] : []));
}

describe('the end-to-end demo with the scripted model', () => {
  let directory: string;
  let output = '';
  let demo: DemoResult;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'mcpkit-demo-'));
    demo = await runDemo({
      dataDirectory: directory,
      environment: {},
      write: (text) => {
        output += text;
      },
    });
  }, 120_000);

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('says on its first line that it uses the scripted model, and connects all three servers', () => {
    expect(demo.scripted).toBe(true);
    expect(output.split('\n')[0]).toMatch(/^Model: scripted/);
    expect(output).toMatch(/Connected: database \(\d+ tools\), files \(\d+ tools\), search \(\d+ tools\)/);
    expect(output).not.toContain('failed to start');
  });

  it('answers "show me all users" with every user name in the sample database', () => {
    const run = demo.runs[0];
    expect(run && calls(run.events)).toEqual(['database.query']);
    const database = new Database(join(directory, 'company.sqlite'), { readonly: true });
    const names = database.prepare('SELECT full_name FROM users').pluck().all() as string[];
    database.close();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(run?.result.answer).toContain(name);
  });

  it('answers the vacation question from the handbook found through search', () => {
    const run = demo.runs[1];
    expect(run && calls(run.events)).toEqual(['search.search', 'files.read_text_file']);
    const searchResult = run && toolEnds(run.events)[0];
    expect(searchResult?.text).toContain('vacation-policy.md');
    expect(run?.result.answer).toContain('25 days of paid vacation');
  });

  it('runs two independent tool calls in one turn, concurrently', () => {
    const run = demo.runs[2];
    expect(run).toBeDefined();
    const events = run?.events ?? [];
    const firstResponse = events.find((event) => event.type === 'model-response');
    expect(firstResponse?.type === 'model-response' && firstResponse.toolCalls).toHaveLength(2);
    const starts = events.flatMap((event, index) => (event.type === 'tool-call-start' ? [index] : []));
    const firstEnd = events.findIndex((event) => event.type === 'tool-call-end');
    expect(starts).toHaveLength(2);
    expect(Math.max(...starts)).toBeLessThan(firstEnd);
    expect(run?.result.answer).toMatch(/\b40\b/);
    expect(run?.result.answer).toContain('remote-work.md');
  });

  it('recovers from a query against a missing table through list_tables and a corrected query', () => {
    const run = demo.runs[3];
    const ends = run ? toolEnds(run.events) : [];
    expect(ends.map((end) => [end.tool, end.isError])).toEqual([
      ['query', true],
      ['list_tables', false],
      ['query', false],
    ]);
    expect(ends[0]?.text).toContain('product');
    expect(ends[1]?.text).toContain('products');
    expect(run?.result.answer).toContain('Standing desk');
    expect(run?.result.stoppedBy).toBe('answer');
  });
});

describe('the demo with a model that is named but cannot be used', () => {
  it('says what is missing instead of falling back to the scripted model', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcpkit-demo-'));
    try {
      const run = runDemo({
        dataDirectory: directory,
        environment: { MCPKIT_MODEL: 'openai:gpt-4o-mini' },
        write: () => {},
      });
      await expect(run).rejects.toThrow(/OPENAI_API_KEY/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
