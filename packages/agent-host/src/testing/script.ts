import { z } from 'zod';
import { HostError } from '../errors.js';

const toolCallStep = z.object({
  /** The model-facing tool name, e.g. `files__read_text_file`. */
  name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** The call id; generated when absent. */
  id: z.string().optional(),
});

const step = z.union([
  z.object({
    /** Calls made in this turn, all at once (the host runs them concurrently). */
    toolCalls: z.array(toolCallStep).min(1),
    /** Text said before the calls. */
    text: z.string().optional(),
    delayMs: z.number().int().nonnegative().optional(),
  }),
  z.object({
    /**
     * The answer. `{{tool_results}}` is replaced by the text of the tool results the request carried, and
     * `{{user_message}}` by the text of the latest user message.
     */
    text: z.string(),
    delayMs: z.number().int().nonnegative().optional(),
  }),
  z.object({
    /** Answer this HTTP error instead, in the provider's error format. */
    error: z.object({
      status: z.number().int().min(400).max(599),
      message: z.string().optional(),
      retryAfterSeconds: z.number().nonnegative().optional(),
    }),
  }),
]);

/** The script a scripted model plays: one step per model request, in order. */
export const scriptSchema = z.object({
  /** Which wire format the command line's `--model scripted:FILE` speaks (default `openai`). */
  provider: z.enum(['openai', 'anthropic']).optional(),
  steps: z.array(step).min(1),
});

/** One step of a script: tool calls, a text answer, or an HTTP error. */
export type ScriptStep = z.infer<typeof step>;

/** A scripted model's script, written as data (a JSON file or an object). */
export type Script = z.infer<typeof scriptSchema>;

/** Checks a script, with an error that names the step and field at fault. */
export function parseScript(value: unknown, source = 'script'): Script {
  const parsed = scriptSchema.safeParse(Array.isArray(value) ? { steps: value } : value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  throw new HostError('SCRIPT_INVALID', `${source}: ${path ? `field "${path}": ` : ''}${issue?.message ?? 'invalid'}.`);
}
