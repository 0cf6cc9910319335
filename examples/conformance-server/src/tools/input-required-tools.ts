import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';

// The tools of the input-required-result-* scenarios (SEP-2322). They are written like any kit tool: ctx.elicit,
// ctx.sample and ctx.roots ask the client; in the 2026-07-28 era each question becomes an input request of an
// `input_required` result under the key given here, and the kit replays the handler when the client retries.

const nameForm = z.object({ name: z.string() });

/** The text of a sampling answer. */
function sampledText(content: unknown): string {
  const block = Array.isArray(content) ? content[0] : content;
  return typeof block === 'object' && block !== null && 'text' in block ? String(block.text) : '';
}

/** `test_input_required_result_elicitation`: asks for a name under `user_name`, then greets. */
export const inputRequiredElicitation = defineTool({
  name: 'test_input_required_result_elicitation',
  description: 'Asks the user for their name, then greets them.',
  async handler(_args, { elicit }) {
    const answer = await elicit('What is your name?', nameForm, { key: 'user_name' });
    return answer.action === 'accept' ? `Hello, ${answer.content.name}!` : `No name given (${answer.action}).`;
  },
});

/** `test_input_required_result_sampling`: asks the client's model under `capital_question`. */
export const inputRequiredSampling = defineTool({
  name: 'test_input_required_result_sampling',
  description: 'Asks the client model for the capital of France.',
  async handler(_args, { sample }) {
    const answer = await sample(
      { prompt: 'What is the capital of France?', maxTokens: 100 },
      { key: 'capital_question' },
    );
    return `The model said: ${sampledText(answer.content)}`;
  },
});

/** `test_input_required_result_list_roots`: asks for the client's roots under `client_roots`. */
export const inputRequiredListRoots = defineTool({
  name: 'test_input_required_result_list_roots',
  description: 'Lists the client roots.',
  async handler(_args, { roots }) {
    const listed = (await roots({ key: 'client_roots' })) ?? [];
    return `The client has ${listed.length} roots: ${listed.map((root) => root.uri).join(', ')}`;
  },
});

/** `test_input_required_result_request_state`: one confirmation; the kit's signed state carries the round. */
export const inputRequiredRequestState = defineTool({
  name: 'test_input_required_result_request_state',
  description: 'Asks for a confirmation and reports that the request state came back intact.',
  async handler(_args, { elicit }) {
    const answer = await elicit('Please confirm', z.object({ ok: z.boolean() }), { key: 'confirm' });
    return `state-ok: ${answer.action}`;
  },
});

/** `test_input_required_result_multiple_inputs`: three questions at once, answered in one round. */
export const inputRequiredMultipleInputs = defineTool({
  name: 'test_input_required_result_multiple_inputs',
  description: 'Asks for a name, a greeting from the model and the roots, all at once.',
  async handler(_args, { elicit, sample, roots }) {
    const [name, greeting, listed] = await Promise.all([
      elicit('What is your name?', nameForm, { key: 'user_name' }),
      sample({ prompt: 'Generate a greeting', maxTokens: 50 }, { key: 'greeting' }),
      roots({ key: 'client_roots' }),
    ]);
    const who = name.action === 'accept' ? name.content.name : 'someone';
    return `${sampledText(greeting.content)} ${who} (${listed?.length ?? 0} roots)`;
  },
});

/** `test_input_required_result_multi_round`: two questions, one round each. */
export const inputRequiredMultiRound = defineTool({
  name: 'test_input_required_result_multi_round',
  description: 'Asks for a name, then for a favorite color.',
  async handler(_args, { elicit }) {
    const name = await elicit('Step 1: What is your name?', nameForm, { key: 'step1' });
    const color = await elicit('Step 2: What is your favorite color?', z.object({ color: z.string() }), {
      key: 'step2',
    });
    const who = name.action === 'accept' ? name.content.name : 'someone';
    return color.action === 'accept'
      ? `${who} likes ${color.content.color}.`
      : `${who} kept their color to themselves.`;
  },
});

/** `test_input_required_result_tampered_state`: one question; a retry with a tampered state is refused by the kit. */
export const inputRequiredTamperedState = defineTool({
  name: 'test_input_required_result_tampered_state',
  description: 'Asks for a confirmation; the request state of its round is signed.',
  async handler(_args, { elicit }) {
    const answer = await elicit('Please confirm', z.object({ ok: z.boolean() }), { key: 'confirm' });
    return `confirmed: ${answer.action}`;
  },
});

/** `test_input_required_result_capabilities`: asks only with what the client declared. */
export const inputRequiredCapabilities = defineTool({
  name: 'test_input_required_result_capabilities',
  description: 'Asks the client only in the ways it declared it supports.',
  async handler(_args, { client, elicit, sample }) {
    if (client.supports('elicitation')) {
      const answer = await elicit('What is your name?', nameForm, { key: 'user_name' });
      return `elicitation: ${answer.action}`;
    }
    if (client.supports('sampling')) {
      const answer = await sample({ prompt: 'Say hello', maxTokens: 20 }, { key: 'greeting' });
      return `sampling: ${sampledText(answer.content)}`;
    }
    return 'The client declared neither elicitation nor sampling.';
  },
});
