import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { ToolContext } from './context.js';
import { KitError } from './errors.js';
import type { ObjectJsonSchema, SchemaCheck } from './json-schema.js';
import { describeIssues, jsonSchemaChecker } from './json-schema.js';
import type { Middleware } from './middleware/middleware.js';
import { assertToolName } from './names.js';
import type { PreRenderedResult, ToolReturn } from './results.js';

export type { ToolAnnotations };

type MaybePromise<T> = T | Promise<T>;

/** What a handler of a tool with an `output` schema returns: the structured value, or a full or pre-rendered result. */
type HandlerReturn<Output> = Output extends z.ZodObject
  ? z.input<Output> | CallToolResult | PreRenderedResult
  : ToolReturn;

/** A tool as its author declares it. */
export interface ToolDefinition<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject | undefined = z.ZodObject | undefined,
> {
  /** The name the client calls; `^[A-Za-z0-9._-]{1,128}$`, by convention snake_case `verb_noun`. */
  name: string;
  /** A human-friendly name for UIs. */
  title?: string;
  /** What the tool does and when to use it, written for the model. */
  description: string;
  /** The arguments; arguments that fail it never reach the handler (the model gets a readable `isError` result). */
  input?: Input;
  /**
   * The arguments as a JSON Schema object, advertised verbatim and checked at call time, for what zod cannot express
   * (`$defs`, `$anchor`, `if`/`then`/`else`); instead of `input`, never with it.
   */
  inputJsonSchema?: ObjectJsonSchema;
  /** The structured result; when given, the handler's value is checked against it and sent as `structuredContent`. */
  output?: Output;
  /** Hints for clients: whether the tool reads only, destroys, is idempotent, reaches the open world. */
  annotations?: ToolAnnotations;
  /**
   * OAuth scopes a caller's token must grant to call the tool, when the server runs as a protected resource
   * (`serveHttp({ auth })`); a call without them gets 403 `insufficient_scope`. Ignored on stdio and without `auth`.
   */
  scopes?: readonly string[];
  /** Character budget of the result's text and structured content together; defaults to the server's budget. */
  budget?: number;
  /** Budget of the result's binary data (images, audio, blobs) in base64 characters; 16 MiB by default. */
  mediaBudget?: number;
  /** What the truncation note tells the model to do to get the rest, e.g. "Call again with offset=N". */
  truncationHint?: string;
  /**
   * Middleware around the calls of this tool only, run inside the server's (`createServer({ middleware })`), first
   * outermost: its tools/call requests.
   */
  middleware?: readonly Middleware[];
  /** Runs the tool with validated arguments. Throw ToolError for failures the model should read. */
  handler(input: z.output<Input>, context: ToolContext): MaybePromise<HandlerReturn<Output>>;
}

/** A tool of any input and output; the type the server's registry holds. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every argument type.
export type AnyTool = ToolDefinition<any, any>;

const emptyObject = z.object({});

/** Parses synchronously, the common case; undefined when the schema has async parts and needs `safeParseAsync`. */
function parseSync(schema: z.ZodObject, args: unknown): ReturnType<z.ZodObject['safeParse']> | undefined {
  try {
    return schema.safeParse(args);
  } catch {
    return undefined;
  }
}

/**
 * The check a tool's arguments go through before its handler runs: its zod `input`, or its `inputJsonSchema` (compiled
 * once). Throws a KitError for a definition with both, or with a JSON Schema that is not an object schema or does not
 * compile.
 */
export function toolArgumentsChecker(tool: AnyTool): (args: unknown) => SchemaCheck | Promise<SchemaCheck> {
  const { inputJsonSchema } = tool;
  if (inputJsonSchema === undefined) {
    const input: z.ZodObject = tool.input ?? emptyObject;
    const outcome = (parsed: ReturnType<z.ZodObject['safeParse']>): SchemaCheck =>
      parsed.success ? { success: true, data: parsed.data } : { success: false, message: describeIssues(parsed.error) };
    return (args) => {
      const parsed = parseSync(input, args);
      return parsed ? outcome(parsed) : input.safeParseAsync(args).then(outcome);
    };
  }
  if (tool.input !== undefined) {
    throw new KitError(
      'INVALID_DEFINITION',
      `Tool "${tool.name}" has both input and inputJsonSchema: give its arguments one schema.`,
    );
  }
  if (typeof inputJsonSchema !== 'object' || inputJsonSchema === null || inputJsonSchema.type !== 'object') {
    throw new KitError('INVALID_DEFINITION', `Tool "${tool.name}" has an inputJsonSchema without type "object".`);
  }
  try {
    return jsonSchemaChecker(inputJsonSchema);
  } catch (error) {
    throw new KitError(
      'INVALID_DEFINITION',
      `Tool "${tool.name}" has an inputJsonSchema that does not compile: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** Declares a tool. Returns its argument, typed; checks the name, budget and input schema at definition time. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject | undefined = undefined>(
  definition: ToolDefinition<Input, Output>,
): ToolDefinition<Input, Output> {
  assertToolName(definition.name);
  if (!definition.description?.trim()) {
    throw new KitError('INVALID_DEFINITION', `Tool "${definition.name}" needs a description: the model reads it.`);
  }
  for (const [option, value] of [
    ['budget', definition.budget],
    ['mediaBudget', definition.mediaBudget],
  ] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value > 0)) {
      throw new KitError(
        'INVALID_DEFINITION',
        `Tool "${definition.name}" has a ${option} that is not a positive integer.`,
      );
    }
  }
  toolArgumentsChecker(definition);
  return definition;
}
