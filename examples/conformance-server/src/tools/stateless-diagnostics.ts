import { definePrompt, defineTool, type KitServer } from '@mcpkit/server-kit';

// The diagnostic tools of the server-stateless scenario (SEP-2575), for the 2026-07-28 era.

/** `test_missing_capability`: asks the client model; a request that does not declare sampling gets -32021. */
export const missingCapability = defineTool({
  name: 'test_missing_capability',
  description: 'Needs the sampling capability of the client (an undeclared one is refused with -32021).',
  async handler(_args, { sample }) {
    await sample({ prompt: 'Reply with the single word: pong', maxTokens: 16 }, { key: 'llm_answer' });
    return 'sampling round-trip complete';
  },
});

/** `test_streaming_elicitation`: a plain result; its response stream carries no request of the server's own. */
export const streamingElicitation = defineTool({
  name: 'test_streaming_elicitation',
  description: 'Answers with a result frame only.',
  handler: () => 'stream observed: result frames only, no top-level requests',
});

/** `test_logging_tool`: logs at info; a request without `_meta` logLevel gets no log notification. */
export const loggingTool = defineTool({
  name: 'test_logging_tool',
  description: 'Logs once; the log reaches the client only when its request set a log level.',
  handler: (_args, { log }) => {
    log.info('test_logging_tool ran (delivered only when the request set a log level)');
    return 'logged through the request-scoped, level-gated channel';
  },
});

const dynamicTool = defineTool({
  name: 'test_dynamic_tool',
  description: 'Comes and goes with test_trigger_tool_change.',
  handler: () => 'here for now',
});

const dynamicPrompt = definePrompt({
  name: 'test_dynamic_prompt',
  description: 'Comes and goes with test_trigger_prompt_change.',
  render: () => 'here for now',
});

/** `test_trigger_tool_change` and `test_trigger_prompt_change`: change the offer, so list_changed goes out. */
export function listChangeTriggers(server: () => KitServer) {
  return [
    defineTool({
      name: 'test_trigger_tool_change',
      description: 'Adds or removes test_dynamic_tool, so that clients hear the tool list changed.',
      handler: () => {
        if (!server().removeTool(dynamicTool.name)) server().addTool(dynamicTool);
        return 'tools_list_changed published';
      },
    }),
    defineTool({
      name: 'test_trigger_prompt_change',
      description: 'Adds or removes test_dynamic_prompt, so that clients hear the prompt list changed.',
      handler: () => {
        if (!server().removePrompt(dynamicPrompt.name)) server().addPrompt(dynamicPrompt);
        return 'prompts_list_changed published';
      },
    }),
  ];
}
