import type {
  ClientCapabilities,
  CreateMessageResult,
  ElicitRequestFormParams,
  Root,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { samplingParams } from '../call-path.js';
import type { ElicitOutcome, SampleRequest } from '../context.js';
import { ToolError } from '../errors.js';
import { describeIssues, objectJsonSchema } from '../json-schema.js';
import type { AskOptions, InputAsker } from './input-rounds.js';

/** The handler-facing asks of a modern-era call, with the same contract as the legacy era's. */
export interface ModernAsks {
  /** Asks the user with a form; the accepted answer is checked against `schema` (a ToolError when it does not fit). */
  elicit<Schema extends z.ZodObject>(
    message: string,
    schema: Schema,
    options?: AskOptions,
  ): Promise<ElicitOutcome<z.output<Schema>>>;
  /** Asks the client's model; a single prompt becomes one user message. */
  sample(request: SampleRequest, options?: AskOptions): Promise<CreateMessageResult>;
  /** The client's roots, or undefined when the client offers none (asked once per call, like any other input). */
  roots(options?: AskOptions): Promise<Root[] | undefined>;
}

/**
 * Builds `ctx.elicit`, `ctx.sample` and `ctx.roots` for a modern-era call on top of the round engine's asker: the
 * author's code is the same in both eras, only the way the question travels differs.
 */
export function createModernAsks(asker: InputAsker, capabilities: ClientCapabilities | undefined): ModernAsks {
  return {
    async elicit(message, schema, options) {
      const requestedSchema = objectJsonSchema(schema, 'input') as ElicitRequestFormParams['requestedSchema'];
      const answer = await asker.elicit({ message, requestedSchema }, options);
      if (answer.action !== 'accept') return { action: answer.action };
      const parsed = schema.safeParse(answer.content ?? {});
      if (!parsed.success)
        throw new ToolError(`The answer to the form was not valid: ${describeIssues(parsed.error)}.`);
      return { action: 'accept', content: parsed.data };
    },
    async sample(request, options) {
      return (await asker.sample(samplingParams(request), options)) as CreateMessageResult;
    },
    async roots(options) {
      if (!capabilities?.roots) return undefined;
      return (await asker.roots(options)).roots;
    },
  };
}
