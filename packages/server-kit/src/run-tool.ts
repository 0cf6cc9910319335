import type { CallToolResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { boundedSentence } from './budget.js';
import type { ToolContext } from './context.js';
import { ToolError } from './errors.js';
import { isThenable } from './is-thenable.js';
import type { SchemaCheck } from './json-schema.js';
import { describeIssues } from './json-schema.js';
import type { Logger } from './logger.js';
import type { RegisteredTool } from './registry.js';
import { applyBudget, fitsBudget } from './result-budget.js';
import { errorResult, fromPreRendered, isPreRendered, isToolResult, type ToolReturn, toToolResult } from './results.js';
import { deferredResult } from './structured-splice.js';
import { cancelledBeforeItRuns } from './tool-context.js';

/** What the tool calls of one session share. */
export interface RunToolOptions {
  /** The server's budget, for tools without their own. */
  budget: number;
  /** Where unexpected errors and broken output schemas are logged for the developer. */
  log: Logger;
}

/**
 * Runs one tool call: validates the arguments, runs the handler, checks its output schema, holds the result to its
 * budget, and turns every failure into an `isError` result (a ToolError's message, or a short internal error). A
 * pre-rendered result that fits its budgets is passed on as it is, neither checked nor measured again, its structured
 * content still JSON text until something reads it (`deferredResult`; the session parses it or has the transport
 * splice it in, docs/decisions/0018-pre-rendered-results.md); one over a budget takes the common path.
 *
 * The handler's context is built by `contextOf(source)`, only once the arguments are valid. The result comes back
 * synchronously when the argument check and the handler answer synchronously, as a promise otherwise: the common call
 * allocates no promise or closure of its own (docs/decisions/0011-kit-per-call-path.md).
 */
export function runTool<Source>(
  registered: RegisteredTool,
  args: unknown,
  options: RunToolOptions,
  contextOf: (source: Source) => ToolContext,
  source: Source,
): CallToolResult | Promise<CallToolResult> {
  const checked = registered.checkArguments(args ?? {});
  if (isThenable(checked)) {
    return checked.then((parsed) => runChecked(registered, parsed, options, contextOf, source));
  }
  return runChecked(registered, checked, options, contextOf, source);
}

/** Runs the handler with valid arguments (or answers invalid ones) and settles what it returns. */
function runChecked<Source>(
  registered: RegisteredTool,
  parsed: SchemaCheck,
  options: RunToolOptions,
  contextOf: (source: Source) => ToolContext,
  source: Source,
): CallToolResult | Promise<CallToolResult> {
  if (!parsed.success) {
    // Error results skip the budget (nothing to page), and a schema's complaint can name a huge key: held to it here.
    return errorResult(
      boundedSentence(
        `Invalid arguments for tool "${registered.definition.name}": ${parsed.message}.`,
        registered.definition.budget ?? options.budget,
      ),
    );
  }
  const context = contextOf(source);
  // A cancel read in the same chunk as its request aborts the signal before the handler runs; an aborted signal fires
  // no 'abort' event, so a handler waiting for one would run its full time for a call nobody waits for.
  if (cancelledBeforeItRuns(context)) return cancelled(registered.definition.name);
  let value: unknown;
  try {
    value = registered.definition.handler(parsed.data, context);
  } catch (error) {
    return failure(registered, error, context, options);
  }
  if (!isThenable(value)) return settle(registered, value as ToolReturn, context, options);
  return Promise.resolve(value).then(
    (returned) => settle(registered, returned as ToolReturn, context, options),
    (error: unknown) => failure(registered, error, context, options),
  );
}

/** The result of what a handler returned: output schema, budget and pre-rendered results; a failure is an error result. */
function settle(
  registered: RegisteredTool,
  returned: ToolReturn,
  context: ToolContext,
  options: RunToolOptions,
): CallToolResult {
  const { definition } = registered;
  try {
    let value = returned;
    const budget = definition.budget ?? options.budget;
    if (isPreRendered(value)) {
      const structuredChars = value.structuredJson?.length ?? 0;
      if (fitsBudget(value.content, structuredChars, budget, definition.mediaBudget)) {
        return value.structuredJson === undefined
          ? { content: value.content }
          : deferredResult(value.content, value.structuredJson);
      }
      value = fromPreRendered(value);
    }
    let result: CallToolResult;
    if (definition.output) {
      const structured = isToolResult(value) ? value.structuredContent : value;
      const checked = (definition.output as z.ZodObject).safeParse(structured);
      if (!checked.success) {
        options.log.error(
          `Tool "${definition.name}" returned a value that does not match its output schema: ${describeIssues(checked.error)}`,
        );
        return errorResult(
          `The tool "${definition.name}" failed with an internal error; the server's log has the details.`,
        );
      }
      result = isToolResult(value)
        ? { ...value, structuredContent: checked.data }
        : {
            content: [{ type: 'text', text: JSON.stringify(checked.data, null, 2) }],
            structuredContent: checked.data,
          };
    } else {
      result = toToolResult(value);
    }
    return applyBudget(result, budget, registered.budgetOptions);
  } catch (error) {
    return failure(registered, error, context, options);
  }
}

/** A handler's failure as the model reads it: a ToolError's message, a cancellation, or a logged internal error. */
function failure(
  registered: RegisteredTool,
  error: unknown,
  context: ToolContext,
  options: RunToolOptions,
): CallToolResult {
  const { name } = registered.definition;
  if (ToolError.isInstance(error)) {
    return errorResult(boundedSentence(error.message, registered.definition.budget ?? options.budget));
  }
  if (context.signal.aborted) return cancelled(name);
  options.log.error(`Tool "${name}" threw an unexpected error`, error);
  return errorResult(`The tool "${name}" failed with an internal error; the server's log has the details.`);
}

/** The result of a call whose client cancelled it (the SDK does not send it on; it is the handler's answer in tests). */
function cancelled(name: string): CallToolResult {
  return errorResult(`The call to "${name}" was cancelled before it finished.`);
}
