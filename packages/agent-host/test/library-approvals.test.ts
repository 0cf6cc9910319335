// The approvals example of docs/host.md, run for real: the guide copies the `approvals` region below, and
// library-usage.test.ts fails when any copy in the guide is out of date.
import { expect, it } from 'vitest';
import { type ApprovalRequest, approvalHandler, connectHost, createAgent, parseConfig } from '../src/index.js';
import { startScriptedModel } from '../src/testing/index.js';
import { fixturePath } from './helpers.js';

it('asks a UI about the calls the policy leaves open, and the model reads the refusal', async () => {
  const config = await parseConfig({
    mcpServers: { crm: { command: process.execPath, args: [fixturePath('many-tools/server.mjs'), 'crm'] } },
  });
  const host = await connectHost(config, { log: () => {} });
  const scripted = await startScriptedModel([
    {
      toolCalls: [
        { name: 'crm__delete_note', arguments: { note_id: 'note_1' } },
        { name: 'crm__get_deal', arguments: { deal_id: 'deal_7' } },
      ],
    },
    { text: '{{tool_results}}' },
  ]);
  const shown: string[] = [];
  // A stand-in for a UI's dialog: it shows the call and the person says no.
  const confirmInDialog = async (request: ApprovalRequest) => {
    shown.push(`${request.server}/${request.tool} ${JSON.stringify(request.arguments)}`);
    return false;
  };

  // #region approvals
  // Read-only tools run; every other call waits for the person's answer in the UI's dialog.
  const approve = approvalHandler({
    rules: { default: 'ask' },
    ask: async (request) => ((await confirmInDialog(request)) ? 'yes' : 'no'),
  });
  const agent = createAgent({ host, model: scripted.model(), approve });
  const refused: string[] = [];
  agent.subscribe((event) => {
    // A refused call never reached its server; the model got the refusal as the call's result.
    if (event.type === 'tool-call-end' && event.refused) refused.push(`${event.server}/${event.tool}`);
  });
  const result = await agent.run('Tidy up the notes of deal_7.');
  // #endregion approvals

  await host.close();
  await scripted.close();
  expect(shown).toEqual(['crm/delete_note {"note_id":"note_1"}']);
  expect(refused).toEqual(['crm/delete_note']);
  expect(result.answer).toBe(
    'Not run: the user declined this call of crm/delete_note. Ask the user before trying it again.\n' +
      'crm.get_deal done: {"deal_id":"deal_7"}',
  );
});
