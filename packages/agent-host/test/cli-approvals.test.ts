import { describe, expect, it } from 'vitest';
import { cli, workspace } from './cli-helpers.js';
import { fixturePath } from './helpers.js';

// One generated server (33 tools) per run keeps the test quick; --tool-search always turns search on below 40 tools.
const config = (approve?: Record<string, string>) => ({
  mcpServers: {
    payments: {
      command: process.execPath,
      args: [fixturePath('many-tools/server.mjs'), 'payments'],
      ...(approve ? { approve } : {}),
    },
  },
});

describe('approvals on the command line', () => {
  it('chat asks before a tool that changes things, remembers "always" for the session, and honours "no"', async () => {
    const cwd = workspace(config(), {
      steps: [
        { toolCalls: [{ name: 'payments__delete_subscription', arguments: { subscription_id: 'SPRING' } }] },
        {
          toolCalls: [
            { name: 'payments__delete_subscription', arguments: { subscription_id: 'SUMMER' } },
            { name: 'payments__create_invoice', arguments: { account_id: 'acct_1', customer_id: 'cus_7' } },
          ],
        },
        { text: '{{tool_results}}' },
      ],
    });
    const result = await cli(['chat', '-m', 'scripted:script.json', '-q', '--tool-search', 'always'], {
      cwd,
      input: 'Clean up the subscriptions.\na\nn\n/tools\n/exit\n',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('Connected: 33 tools (tool search on: the model finds them with search_tools).');
    expect(result.stderr).toContain(
      '[payments] tool delete_subscription may change or delete things. It would run with:',
    );
    expect(result.stderr).toContain('"subscription_id": "SPRING"');
    // Answered "always": the second call of the same tool is not asked about.
    expect(result.stderr.split('tool delete_subscription may change').length - 1).toBe(1);
    expect(result.stderr).toContain('[payments] tool create_invoice may change things, not destructively.');
    expect(result.stdout).toContain('payments.delete_subscription done: {"subscription_id":"SUMMER"}');
    expect(result.stdout).toContain(
      'Not run: the user declined this call of payments/create_invoice. Ask the user before trying it again.',
    );
    // /tools marks the tools the model has now: those it called (loaded), not the other 31.
    expect(result.stdout).toContain('Tool search is on: the model finds tools with search_tools; * marks');
    expect(result.stdout).toContain('* payments__delete_subscription  Delete a subscription permanently.');
    expect(result.stdout).toContain('  payments__list_invoice  List the invoices of an account');
    expect(result.stdout.match(/^\* /gm)).toHaveLength(2);
  });

  it('run refuses such tools with a sentence the model reads, unless --approve or the config allows them', async () => {
    const script = {
      steps: [
        {
          toolCalls: [
            { name: 'payments__delete_subscription', arguments: { subscription_id: 'SPRING' } },
            { name: 'payments__create_invoice', arguments: { account_id: 'acct_1', customer_id: 'cus_7' } },
            { name: 'payments__get_subscription', arguments: { subscription_id: 'SPRING' } },
          ],
        },
        { text: '{{tool_results}}' },
      ],
    };
    const cwd = workspace(config({ 'create_*': 'allow' }), script);
    const refused = await cli(['run', '-m', 'scripted:script.json', '-q', 'Clean up.'], { cwd });
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stdout).toContain(
      "Not run: payments/delete_subscription is not marked read-only, so it needs the user's approval, and no one can be " +
        'asked here. Do not call it again; tell the user what you wanted it to do. (The user can allow it with ' +
        '--approve payments/delete_subscription=allow.)',
    );
    // The config allows the server's create_* tools; read-only tools always run.
    expect(refused.stdout).toContain('payments.create_invoice done: {"account_id":"acct_1","customer_id":"cus_7"}');
    expect(refused.stdout).toContain('payments.get_subscription done: {"subscription_id":"SPRING"}');

    const allowed = await cli(
      [
        'run',
        '-m',
        'scripted:script.json',
        '-q',
        '--approve',
        'payments/delete_subscription=allow',
        '--approve',
        'payments=read-only',
        'Go.',
      ],
      { cwd },
    );
    expect(allowed.stdout).toContain('payments.delete_subscription done: {"subscription_id":"SPRING"}');
    // A flag wins over the config, and a tool's flag over its server's.
    expect(allowed.stdout).toContain(
      'Not run: payments/create_invoice is not marked read-only, and the approval policy "read-only" runs only ' +
        'read-only tools.',
    );
  });

  it('run cuts a result past --max-result-tokens, and refuses a bad --tool-search or --approve', async () => {
    const cwd = workspace(config(), {
      steps: [
        { toolCalls: [{ name: 'payments__list_invoice', arguments: { account_id: 'acct_1', limit: 500 } }] },
        { text: '{{tool_results}}' },
      ],
    });
    const result = await cli(['run', '-m', 'scripted:script.json', '-q', '--max-result-tokens', '300', 'Invoices?'], {
      cwd,
    });
    expect(result.stdout).toMatch(/^invoice 1: created 2026-11-01, owner user0\n/);
    expect(result.stdout).toContain('over the limit of 300 tokens per result');
    expect(result.stdout).toContain('call payments__list_invoice again with its paging arguments (limit, cursor)');
    const badSearch = await cli(['run', '--tool-search', 'sometimes', 'x'], { cwd });
    expect(badSearch.code).toBe(2);
    expect(badSearch.stderr).toContain('--tool-search takes always, auto or never; got "sometimes".');
    const badApprove = await cli(['run', '--approve', 'payments=maybe', 'x'], { cwd });
    expect(badApprove.code).toBe(2);
    expect(badApprove.stderr).toContain('--approve takes POLICY, SERVER=POLICY or SERVER/TOOL=POLICY');
  });
});
