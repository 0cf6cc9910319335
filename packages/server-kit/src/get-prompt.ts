import { ProtocolErrorCode as ErrorCode, type GetPromptResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { boundedSentence, requestErrorChars } from './budget.js';
import type { PromptContext } from './context.js';
import { ToolError } from './errors.js';
import { describeIssues } from './json-schema.js';
import type { Logger } from './logger.js';
import type { Registry } from './registry.js';
import { RequestError } from './request-error.js';

/**
 * Renders the prompt `name` with its arguments. An unknown prompt, arguments that fail its schema and a ToolError from
 * `render` are JSON-RPC invalid params (-32602); any other error is logged and answered as an internal error.
 */
export async function getPrompt(
  registry: Registry,
  name: string,
  args: Record<string, string> | undefined,
  context: PromptContext,
  log: Logger,
): Promise<GetPromptResult> {
  const registered = registry.prompts.get(name);
  if (!registered) throw new RequestError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
  const { definition } = registered;
  let parsedArguments: unknown = args ?? {};
  if (definition.arguments) {
    const parsed = (definition.arguments as z.ZodObject).safeParse(parsedArguments);
    if (!parsed.success) {
      throw new RequestError(
        ErrorCode.InvalidParams,
        `Invalid arguments for prompt "${definition.name}": ${describeIssues(parsed.error)}.`,
      );
    }
    parsedArguments = parsed.data;
  }
  let rendered: Awaited<ReturnType<typeof definition.render>>;
  try {
    rendered = await definition.render(parsedArguments, context);
  } catch (error) {
    if (ToolError.isInstance(error)) {
      throw new RequestError(ErrorCode.InvalidParams, boundedSentence(error.message, requestErrorChars));
    }
    log.error(`Prompt "${definition.name}" threw an unexpected error`, error);
    throw new RequestError(
      ErrorCode.InternalError,
      `Rendering prompt "${definition.name}" failed with an internal error.`,
    );
  }
  if (typeof rendered === 'string') return { messages: [{ role: 'user', content: { type: 'text', text: rendered } }] };
  if (Array.isArray(rendered)) return { messages: rendered };
  return rendered;
}
