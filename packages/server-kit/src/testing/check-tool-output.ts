import type { z } from 'zod';
import type { AnyTool } from '../define-tool.js';
import { describeIssues } from '../json-schema.js';
import { type CallToolResult, isPreRendered, type PreRenderedResult } from '../results.js';

/**
 * The check the kit skips for a pre-rendered result, for tests: the structured content of a tool's result (pre-rendered
 * or as the client received it) against the tool's output schema, and the text and serialized structured content
 * together against the tool's budget when it has one. Returns a sentence saying what is wrong, or undefined.
 */
export function checkToolOutput(tool: AnyTool, result: PreRenderedResult | CallToolResult): string | undefined {
  const structuredJson = isPreRendered(result)
    ? result.structuredJson
    : result.structuredContent === undefined
      ? undefined
      : JSON.stringify(result.structuredContent);
  if (!isPreRendered(result) && result.isError === true) return undefined;
  const output = tool.output as z.ZodObject | undefined;
  if (output !== undefined) {
    if (structuredJson === undefined) return `Tool "${tool.name}" returned no structured content.`;
    const checked = output.safeParse(JSON.parse(structuredJson));
    if (!checked.success) {
      return `Tool "${tool.name}" returned structured content that does not match its output schema: ${describeIssues(checked.error)}`;
    }
  }
  if (tool.budget !== undefined) {
    let size = structuredJson?.length ?? 0;
    for (const block of result.content) if (block.type === 'text') size += block.text.length;
    if (size > tool.budget)
      return `Tool "${tool.name}" returned ${size} characters, over its budget of ${tool.budget}.`;
  }
  return undefined;
}
