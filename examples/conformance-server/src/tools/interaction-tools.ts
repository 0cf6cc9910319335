import { setTimeout as delay } from 'node:timers/promises';
import { defineTool, ToolError } from '@mcpkit/server-kit';
import { z } from 'zod';

/** `test_tool_with_logging`: three info logs, 50 ms apart (scenario tools-call-with-logging). */
export const toolWithLogging = defineTool({
  name: 'test_tool_with_logging',
  description: 'Sends three log messages while it runs.',
  async handler(_args, { log, signal }) {
    log.info('Tool execution started');
    await delay(50, undefined, { signal });
    log.info('Tool processing data');
    await delay(50, undefined, { signal });
    log.info('Tool execution completed');
    return 'Tool with logging executed successfully.';
  },
});

/** `test_tool_with_progress`: progress 0, 50 and 100 of 100 (scenario tools-call-with-progress). */
export const toolWithProgress = defineTool({
  name: 'test_tool_with_progress',
  description: 'Reports progress three times while it runs.',
  async handler(_args, { progress, signal }) {
    await progress(0, 100, 'Started');
    await delay(50, undefined, { signal });
    await progress(50, 100, 'Half way');
    await delay(50, undefined, { signal });
    await progress(100, 100, 'Done');
    return 'Tool with progress executed successfully.';
  },
});

/** `test_error_handling`: always fails with an `isError` result (scenario tools-call-error). */
export const errorHandling = defineTool({
  name: 'test_error_handling',
  description: 'Always fails, to show how a tool reports an error.',
  handler: () => {
    throw new ToolError('This tool intentionally returns an error for testing');
  },
});

/** `test_sampling`: asks the client's model (scenario tools-call-sampling). */
export const sampling = defineTool({
  name: 'test_sampling',
  description: "Sends the prompt to the client's model and returns its answer.",
  input: z.object({ prompt: z.string().describe('The prompt to send to the LLM') }),
  async handler({ prompt }, { sample }) {
    const answer = await sample({ prompt, maxTokens: 100 });
    const reply = answer.content.type === 'text' ? answer.content.text : `[${answer.content.type} content]`;
    return `LLM response: ${reply}`;
  },
});

/** `test_elicitation`: asks the user for a name and an email (scenario tools-call-elicitation). */
export const elicitation = defineTool({
  name: 'test_elicitation',
  description: 'Asks the user for a username and an email address.',
  input: z.object({ message: z.string().describe('The message to show the user') }),
  async handler({ message }, { elicit }) {
    const answer = await elicit(
      message,
      z.object({
        username: z.string().describe("User's response"),
        email: z.string().describe("User's email address"),
      }),
    );
    const content = answer.action === 'accept' ? `, content: ${JSON.stringify(answer.content)}` : '';
    return `User response: action: ${answer.action}${content}`;
  },
});
