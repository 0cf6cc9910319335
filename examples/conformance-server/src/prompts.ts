import { definePrompt } from '@mcpkit/server-kit';
import { z } from 'zod';
import { redPixelPng } from './media.js';

/** `test_simple_prompt` (scenario prompts-get-simple). */
export const simplePrompt = definePrompt({
  name: 'test_simple_prompt',
  description: 'A prompt without arguments.',
  render: () => 'This is a simple prompt for testing.',
});

/** `test_prompt_with_arguments`, whose arguments also complete (scenarios prompts-get-with-args, completion-complete). */
export const promptWithArguments = definePrompt({
  name: 'test_prompt_with_arguments',
  description: 'A prompt that fills in two arguments.',
  arguments: z.object({
    arg1: z.string().describe('First test argument'),
    arg2: z.string().describe('Second test argument'),
  }),
  complete: {
    arg1: (value) => ['paris', 'park', 'party', 'test', 'testing'].filter((word) => word.startsWith(value)),
  },
  render: ({ arg1, arg2 }) => `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`,
});

/** `test_prompt_with_embedded_resource` (scenario prompts-get-embedded-resource). */
export const promptWithEmbeddedResource = definePrompt({
  name: 'test_prompt_with_embedded_resource',
  description: 'A prompt that embeds a resource.',
  arguments: z.object({ resourceUri: z.string().describe('URI of the resource to embed') }),
  render: ({ resourceUri }) => [
    {
      role: 'user',
      content: {
        type: 'resource',
        resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
      },
    },
    { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
  ],
});

/** `test_prompt_with_image` (scenario prompts-get-with-image). */
export const promptWithImage = definePrompt({
  name: 'test_prompt_with_image',
  description: 'A prompt that carries an image.',
  render: () => [
    { role: 'user', content: { type: 'image', data: redPixelPng, mimeType: 'image/png' } },
    { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
  ],
});

/** `test_input_required_result_prompt`: asks for context under `user_context` first (input-required-result-non-tool-request). */
export const promptThatAsks = definePrompt({
  name: 'test_input_required_result_prompt',
  description: 'A prompt that asks the user for context before it renders.',
  async render(_args, { elicit }) {
    const answer = await elicit('What context should the prompt use?', z.object({ context: z.string() }), {
      key: 'user_context',
    });
    return answer.action === 'accept' ? `Use this context: ${answer.content.context}` : 'Use no particular context.';
  },
});
