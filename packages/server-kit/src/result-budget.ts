import type { CallToolResult } from '@modelcontextprotocol/server';
import { cutAtBoundary, defaultHint } from './budget.js';
import { fitJson, jsonLength } from './fit-json.js';
import { errorResult } from './results.js';

// A whole tool result held to its budgets, on the tool-call path: loaded with it after the first tools/list answer
// (ADR 0020), apart from the text helpers of budget.ts, which the main entry exports.

/** The default budget of a result's binary data (images, audio, file blobs), in base64 characters: 16 MiB. */
export const defaultMediaBudget = 16 * 1024 * 1024;

/** How `applyBudget` cuts, besides the budget. */
export interface BudgetOptions {
  /** What the note tells the model to do to get the rest. */
  hint?: string;
  /** Budget of binary data in base64 characters (default `defaultMediaBudget`); blocks over it are left out whole. */
  mediaBudget?: number;
  /** Whether a cut structured value still matches the tool's output schema; absent means any cut is acceptable. */
  accepts?(structured: Record<string, unknown>): boolean;
}

type Block = CallToolResult['content'][number];

/** Characters of a block that count against the text budget (text, a resource's text, a link's fields). */
function textLength(block: Block): number {
  if (block.type === 'text') return block.text.length;
  if (block.type === 'image' || block.type === 'audio') return 0;
  if (block.type === 'resource') return 'text' in block.resource ? block.resource.text.length : 0;
  return jsonLength(block);
}

/** Base64 characters of a block's binary data. */
function mediaLength(block: Block): number {
  if (block.type === 'image' || block.type === 'audio') return block.data.length;
  if (block.type === 'resource' && 'blob' in block.resource) return block.resource.blob.length;
  return 0;
}

/**
 * Whether content blocks and `structuredChars` characters of already serialized structured content fit `budget` and
 * the media budget as they are: a look at string lengths, nothing serialized (for pre-rendered results).
 */
export function fitsBudget(
  content: CallToolResult['content'],
  structuredChars: number,
  budget: number,
  mediaBudget = defaultMediaBudget,
): boolean {
  let text = structuredChars;
  let media = 0;
  for (const block of content) {
    text += textLength(block);
    media += mediaLength(block);
  }
  return text <= budget && media <= mediaBudget;
}

/** The text budget and the structured content's share of `budget`: each part keeps what it needs up to half. */
function shares(budget: number, text: number, structured: number): { text: number; structured: number } {
  const half = Math.floor(budget / 2);
  if (text <= half) return { text, structured: budget - text };
  if (structured <= half) return { text: budget - structured, structured };
  return { text: half, structured: budget - half };
}

/**
 * Holds a whole tool result to its budgets: text blocks, resource text and the serialized `structuredContent`
 * together to `budget` characters, binary data (images, audio, blobs) to `mediaBudget`. Text blocks that fit are
 * kept whole, the one that crosses is cut at a clean boundary, later ones are dropped; structured content over its
 * share is cut keeping its shape (`fitJson`), or left out when it has no schema and cannot be cut; binary blocks over
 * the media budget are left out. A note says what was cut. When the tool has an output schema and no valid cut fits,
 * the result is an `isError` result that says so (see docs/decisions/0013-budgets-cover-the-whole-result.md).
 */
export function applyBudget(
  result: CallToolResult,
  budget: number,
  hintOrOptions?: string | BudgetOptions,
): CallToolResult {
  const options = typeof hintOrOptions === 'string' ? { hint: hintOrOptions } : (hintOrOptions ?? {});
  const mediaBudget = options.mediaBudget ?? defaultMediaBudget;
  let textTotal = 0;
  let mediaTotal = 0;
  for (const block of result.content) {
    textTotal += textLength(block);
    mediaTotal += mediaLength(block);
  }
  // The kit only ever puts an object here (tools declare object output schemas); the 2026 wire type allows any value.
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  const structuredSize = structured === undefined ? 0 : jsonLength(structured, budget + 1);
  if (textTotal + structuredSize <= budget && mediaTotal <= mediaBudget) return result;

  const notes: string[] = [];
  let textBudget = budget;
  let keptStructured = structured;
  if (structured !== undefined) {
    const share = shares(budget, textTotal, structuredSize);
    const fitted = structuredSize <= share.structured ? undefined : fitJson(structured, share.structured);
    if (structuredSize <= share.structured) {
      textBudget = share.text;
    } else if (fitted && (options.accepts?.(fitted.value) ?? true)) {
      keptStructured = fitted.value;
      textBudget = budget - fitted.size;
      const more = fitted.cuts.length > 5 ? `; and ${fitted.cuts.length - 5} more cuts` : '';
      notes.push(`structured content cut to fit (${fitted.cuts.slice(0, 5).join('; ')}${more})`);
    } else if (options.accepts) {
      return errorResult(
        `The result was too large to send: its structured content does not fit the budget of ${budget.toLocaleString('en-US')} characters. ${options.hint ?? defaultHint}`,
      );
    } else {
      keptStructured = undefined;
      notes.push('structured content left out: it did not fit');
    }
  }

  let textLeft = textBudget;
  let mediaLeft = mediaBudget;
  let shown = 0;
  let textCut = false;
  let mediaDropped = 0;
  const content: CallToolResult['content'] = [];
  for (const block of result.content) {
    const media = mediaLength(block);
    if (media > 0 || block.type === 'image' || block.type === 'audio') {
      if (media <= mediaLeft) {
        content.push(block);
        mediaLeft -= media;
      } else mediaDropped += 1;
      continue;
    }
    const length = textLength(block);
    if (length <= textLeft) {
      content.push(block);
      textLeft -= length;
      shown += length;
      continue;
    }
    textCut = true;
    if (textLeft <= 0) continue;
    if (block.type === 'text' || (block.type === 'resource' && 'text' in block.resource)) {
      const kept = cutAtBoundary(
        block.type === 'text' ? block.text : (block.resource as { text: string }).text,
        textLeft,
      );
      content.push(
        block.type === 'text' ? { ...block, text: kept } : { ...block, resource: { ...block.resource, text: kept } },
      );
      shown += kept.length;
    }
    textLeft = 0;
  }
  if (textCut)
    notes.unshift(`showed ${shown.toLocaleString('en-US')} of ${textTotal.toLocaleString('en-US')} characters`);
  if (mediaDropped > 0) {
    notes.push(
      `left out ${mediaDropped} image, audio or file block${mediaDropped === 1 ? '' : 's'} over the ${mediaBudget.toLocaleString('en-US')}-character media budget`,
    );
  }
  content.push({ type: 'text', text: `[truncated: ${notes.join('; ')}. ${options.hint ?? defaultHint}]` });
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content, ...(keptStructured === undefined ? {} : { structuredContent: keptStructured }) };
}
