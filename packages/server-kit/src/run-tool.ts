import type { CallToolResult } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { applyBudget, fitsBudget } from './budget.js';
import type { ToolContext } from './context.js';
import { ToolError } from './errors.js';
import { describeIssues } from './json-schema.js';
import type { Logger } from './logger.js';
import type { RegisteredTool } from './registry.js';
import { errorResult, fromPreRendered, isPreRendered, isToolResult, toToolResult } from './results.js';
import { deferredResult } from './structured-splice.js';

/** What a tool call needs besides the tool and its arguments. */
export interface RunToolOptions {
  /** The server's budget, for tools without their own. */
  budget: number;
  /** Where unexpected errors and broken output schemas are logged for the developer. */
  log: Logger;
  /** Builds the handler's context; called only once the arguments are valid. */
  context(): ToolContext;
}

/**
 * Runs one tool call: validates the arguments, runs the handler, checks its output schema, holds the result to its
 * budget, and turns every failure into an `isError` result (a ToolError's message, or a short internal error). A
 * pre-rendered result that fits its budgets is passed on as it is, neither checked nor measured again, its structured
 * content still JSON text until something reads it (`deferredResult`; the session parses it or has the transport
 * splice it in, docs/decisions/0018-pre-rendered-results.md); one over a budget takes the common path.
 */
export async function runTool(
  registered: RegisteredTool,
  args: unknown,
  options: RunToolOptions,
): Promise<CallToolResult> {
  const { definition } = registered;
  const parsed = await registered.checkArguments(args ?? {});
  if (!parsed.success) {
    return errorResult(`Invalid arguments for tool "${definition.name}": ${parsed.message}.`);
  }
  const context = options.context();
  try {
    let value = await definition.handler(parsed.data, context);
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
    const output = definition.output as z.ZodObject | undefined;
    return applyBudget(result, budget, {
      ...(definition.truncationHint === undefined ? {} : { hint: definition.truncationHint }),
      ...(definition.mediaBudget === undefined ? {} : { mediaBudget: definition.mediaBudget }),
      ...(output ? { accepts: (structured: Record<string, unknown>) => output.safeParse(structured).success } : {}),
    });
  } catch (error) {
    if (ToolError.isInstance(error)) return errorResult(error.message);
    if (context.signal.aborted)
      return errorResult(`The call to "${definition.name}" was cancelled before it finished.`);
    options.log.error(`Tool "${definition.name}" threw an unexpected error`, error);
    return errorResult(
      `The tool "${definition.name}" failed with an internal error; the server's log has the details.`,
    );
  }
}
