import type { GetPromptResult, PromptMessage } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { PromptContext } from './context.js';
import type { Completer } from './define-resource.js';
import type { Middleware } from './middleware/middleware.js';
import { assertPromptName } from './names.js';

export type { GetPromptResult, PromptMessage };

type MaybePromise<T> = T | Promise<T>;

/** A prompt template as its author declares it. Prompt arguments are strings on the wire: use string schemas. */
export interface PromptDefinition<Arguments extends z.ZodObject = z.ZodObject> {
  name: string;
  title?: string;
  description?: string;
  /** The arguments, each a string schema; `.describe()` gives the argument's description, `.optional()` makes it optional. */
  arguments?: Arguments;
  /** Completions for arguments, by argument name. */
  complete?: Partial<Record<keyof z.output<Arguments> & string, Completer>>;
  /**
   * Middleware around the calls of this prompt only, run inside the server's (`createServer({ middleware })`), first
   * outermost: its prompts/get requests and the completions of its arguments.
   */
  middleware?: readonly Middleware[];
  /** Builds the messages: a string is one user message; or messages; or a whole result with a description. */
  render(args: z.output<Arguments>, context: PromptContext): MaybePromise<string | PromptMessage[] | GetPromptResult>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds prompts of every argument type.
export type AnyPrompt = PromptDefinition<any>;

/** Declares a prompt. Returns its argument, typed; checks the name at definition time. */
export function definePrompt<Arguments extends z.ZodObject>(
  definition: PromptDefinition<Arguments>,
): PromptDefinition<Arguments> {
  assertPromptName(definition.name);
  return definition;
}
