import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** About 25,000 tokens: the default character budget of one tool result. */
export const defaultBudget = 100_000;

/** Where a text cut may land: the last line break in the final fifth of the budget, else the last space, else the limit. */
export function cutAtBoundary(value: string, limit: number): string {
  if (value.length <= limit) return value;
  const floor = Math.floor(limit * 0.8);
  const lineBreak = value.lastIndexOf('\n', limit - 1);
  if (lineBreak >= floor) return value.slice(0, lineBreak + 1);
  const space = value.lastIndexOf(' ', limit - 1);
  if (space >= floor) return value.slice(0, space + 1);
  let end = limit;
  const code = value.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1; // never split a surrogate pair
  return value.slice(0, end);
}

/** The result of cutting a text to a budget: what is kept and where the rest starts. */
export interface BudgetedText {
  text: string;
  truncated: boolean;
  /** Characters of the original kept; the offset at which a continuation starts. */
  shown: number;
  total: number;
}

/** Cuts `value` to at most `budget` characters at a clean boundary. */
export function budgetText(value: string, budget: number): BudgetedText {
  const kept = cutAtBoundary(value, budget);
  return { text: kept, truncated: kept.length < value.length, shown: kept.length, total: value.length };
}

/** The note a cut result ends with. */
export function truncationNote(shown: number, total: number, hint?: string): string {
  const how = hint ?? 'Ask for less: narrow the request, or use the paging arguments the tool accepts.';
  return `[truncated: showed ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters. ${how}]`;
}

/**
 * Holds a tool result to a character budget over its text blocks. Blocks that fit are kept whole; the block that
 * crosses the budget is cut at a clean boundary; later text blocks are dropped; a note saying so is appended.
 * Non-text blocks (images, audio, links) pass through: the tools that make them cap their size.
 */
export function applyBudget(result: CallToolResult, budget: number, hint?: string): CallToolResult {
  let total = 0;
  for (const block of result.content) if (block.type === 'text') total += block.text.length;
  if (total <= budget) return result;

  let remaining = budget;
  let shown = 0;
  const content: CallToolResult['content'] = [];
  for (const block of result.content) {
    if (block.type !== 'text') {
      content.push(block);
      continue;
    }
    if (remaining <= 0) continue;
    const kept = cutAtBoundary(block.text, remaining);
    remaining -= kept.length;
    shown += kept.length;
    content.push(kept.length === block.text.length ? block : { ...block, text: kept });
    if (kept.length < block.text.length) remaining = 0;
  }
  content.push({ type: 'text', text: truncationNote(shown, total, hint) });
  return { ...result, content };
}
