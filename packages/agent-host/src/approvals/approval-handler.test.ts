import { describe, expect, it } from 'vitest';
import { type ApprovalRequest, approvalHandler } from './approval-handler.js';
import { approvalOutcome, resolvePolicy } from './approval-policy.js';
import { approvalRulesOfConfig, approvalRulesOfFlags } from './approval-rules.js';

const request = (tool: string, readOnly: boolean, server = 'files'): ApprovalRequest => ({
  server,
  tool,
  modelName: `${server}__${tool}`,
  arguments: { path: 'a.txt' },
  annotations: readOnly ? { readOnlyHint: true } : { destructiveHint: true },
});

describe('approval policies', () => {
  it('runs read-only tools, asks or refuses the others, by policy', () => {
    expect(approvalOutcome('ask', { readOnlyHint: true })).toBe('run');
    expect(approvalOutcome('ask', {})).toBe('ask');
    expect(approvalOutcome('ask', undefined)).toBe('ask');
    expect(approvalOutcome('read-only', { destructiveHint: true })).toBe('refuse');
    expect(approvalOutcome('always-ask', { readOnlyHint: true })).toBe('ask');
    expect(approvalOutcome('allow', { destructiveHint: true })).toBe('run');
  });

  it('takes the first layer that names a tool, the most specific entry first within a server', () => {
    const flags = { servers: { db: 'allow' as const } };
    const config = { default: 'read-only' as const, servers: { files: { write_file: 'allow', '*': 'ask' } as const } };
    expect(resolvePolicy([flags, config], 'db', 'drop_table')).toBe('allow');
    expect(resolvePolicy([flags, config], 'files', 'write_file')).toBe('allow');
    expect(resolvePolicy([flags, config], 'files', 'move_file')).toBe('ask');
    expect(resolvePolicy([flags, config], 'search', 'index')).toBe('read-only');
    expect(resolvePolicy([], 'search', 'index')).toBe('ask');
  });
});

describe('approvalHandler', () => {
  it('refuses what needs approval when no one can be asked, with a sentence for the model', async () => {
    const approve = approvalHandler({ howToAllow: (call) => `--approve ${call.server}/${call.tool}=allow` });
    expect(await approve(request('read_file', true))).toEqual({ allowed: true });
    const refused = await approve(request('write_file', false));
    expect(refused.allowed).toBe(false);
    expect(!refused.allowed && refused.message).toMatch(
      /^Not run: files\/write_file is not marked read-only, so it needs the user's approval, and no one can be asked here\. .* --approve files\/write_file=allow$/,
    );
  });

  it('asks one call at a time and remembers "always" for the tool', async () => {
    const asked: string[] = [];
    let open = 0;
    const approve = approvalHandler({
      ask: async (call) => {
        open += 1;
        expect(open).toBe(1);
        asked.push(call.tool);
        await new Promise((resolve) => setTimeout(resolve, 20));
        open -= 1;
        return call.tool === 'write_file' ? 'always' : 'no';
      },
    });
    const decisions = await Promise.all([
      approve(request('write_file', false)),
      approve(request('write_file', false)),
      approve(request('delete_file', false)),
    ]);
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
    expect(asked).toEqual(['write_file', 'delete_file']);
    expect(await approve(request('write_file', false))).toEqual({ allowed: true });
    expect(asked).toHaveLength(2);
  });
});

describe('approval rules of flags and config', () => {
  it('reads POLICY, SERVER=POLICY and SERVER/TOOL=POLICY, the tool before its server', () => {
    const rules = approvalRulesOfFlags(['read-only', 'db=allow', 'files/write_file=allow', 'files=always-ask']);
    expect(rules).toEqual({
      default: 'read-only',
      servers: { db: 'allow', files: { write_file: 'allow', '*': 'always-ask' } },
    });
    expect(resolvePolicy([rules], 'files', 'write_file')).toBe('allow');
    expect(resolvePolicy([rules], 'files', 'read_file')).toBe('always-ask');
    expect(() => approvalRulesOfFlags(['db=sometimes'])).toThrow(/--approve takes POLICY/);
    expect(() => approvalRulesOfFlags(['=allow'])).toThrow(/--approve takes POLICY/);
    expect(approvalRulesOfConfig([{ name: 'db', approve: { query: 'allow' } }, { name: 'files' }])).toEqual({
      servers: { db: { query: 'allow' } },
    });
  });
});
