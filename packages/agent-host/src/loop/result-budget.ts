import type { ContentPart } from '../models/messages.js';
import { imageTokens } from './image-size.js';

/** Default most tokens one tool result may put in the conversation. */
export const defaultMaxResultTokens = 25_000;

// A token estimate, not a tokenizer: about four bytes of UTF-8 per token for English prose, code and JSON (the
// providers' tokenizers differ; decision 0412 says why an estimate is enough for a budget).
const bytesPerToken = 4;

/** About how many tokens a text costs: its UTF-8 bytes over four. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / bytesPerToken);
}

function partTokens(part: ContentPart): number {
  return part.type === 'text' ? estimateTextTokens(part.text) : imageTokens(part.data);
}

/** The longest start of `text` that fits in `bytes` of UTF-8, never splitting a character. */
function prefixWithinBytes(text: string, bytes: number): string {
  const { read } = new TextEncoder().encodeInto(text, new Uint8Array(Math.max(bytes, 0)));
  return text.slice(0, read);
}

/**
 * Where a cut of a text is clean: after the last line break in the final fifth of what fits, else after the last
 * space or comma there (a JSON value's boundary), else where it fits.
 */
export function cleanCut(text: string, fitting: string): string {
  if (fitting.length >= text.length) return text;
  const floor = Math.floor(fitting.length * 0.8);
  const lineBreak = fitting.lastIndexOf('\n');
  if (lineBreak >= floor) return fitting.slice(0, lineBreak + 1);
  const softBreak = Math.max(fitting.lastIndexOf(' '), fitting.lastIndexOf(','));
  if (softBreak >= floor) return fitting.slice(0, softBreak + 1);
  return fitting;
}

/** How a result is held to its budget. */
export interface ResultBudget {
  /** Most tokens (estimated) of the result. */
  maxTokens: number;
  /** The model-facing name of the tool, for the note. */
  toolName: string;
  /** The tool's parameters that page or window its output, which the note names. */
  pagingArguments: readonly string[];
}

/** What was cut from a result to fit its budget. */
export interface ResultCut {
  /** The estimated tokens of the whole result, and the budget. */
  tokens: number;
  maxTokens: number;
  /** Characters of text shown and in all. */
  shownCharacters: number;
  totalCharacters: number;
  /** Text parts and images left out whole. */
  omittedTexts: number;
  omittedImages: number;
}

const count = (value: number) => value.toLocaleString('en-US');
const plural = (value: number, word: string) => `${count(value)} ${word}${value === 1 ? '' : 's'}`;

function lineCount(text: string): number {
  let lines = text === '' ? 0 : 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < text.length - 1; index = text.indexOf('\n', index + 1)) {
    lines += 1;
  }
  return lines;
}

/** The sentence a cut result ends with: what was cut and how to get the rest. */
export function cutNote(cut: ResultCut, budget: ResultBudget, lines: { shown: number; total: number }): string {
  const shown: string[] = [];
  if (cut.totalCharacters > 0) {
    const through = lines.total > 1 ? `, through line ${count(lines.shown)} of ${count(lines.total)}` : '';
    shown.push(`${count(cut.shownCharacters)} of ${count(cut.totalCharacters)} characters of text${through}`);
  }
  const omitted = [
    ...(cut.omittedTexts > 0 ? [plural(cut.omittedTexts, 'more text block')] : []),
    ...(cut.omittedImages > 0 ? [plural(cut.omittedImages, 'image')] : []),
  ];
  const how =
    budget.pagingArguments.length > 0
      ? `To get the rest, call ${budget.toolName} again with its paging arguments (${budget.pagingArguments.join(', ')}) ` +
        'for the part after what is shown, or for less at a time.'
      : `To get the rest, call ${budget.toolName} again asking for less: a narrower query, a filter or a smaller range.`;
  return (
    `[cut by the host: this result is about ${count(cut.tokens)} tokens, over the limit of ${count(cut.maxTokens)} ` +
    `tokens per result. Shown: ${shown.join('; ') || 'nothing'}${omitted.length > 0 ? `; left out: ${omitted.join(', ')}` : ''}. ${how}]`
  );
}

/**
 * Holds a result's parts to a token budget: parts that fit are kept whole, the text that crosses the budget is cut at
 * a clean boundary, later texts and images that do not fit are left out, and a note says what was cut and how to get
 * the rest. Images count by their pixel size. A result within the budget comes back as it was.
 */
export function boundResultParts(
  parts: readonly ContentPart[],
  budget: ResultBudget,
): { parts: ContentPart[]; cut?: ResultCut } {
  const tokens = parts.reduce((sum, part) => sum + partTokens(part), 0);
  if (tokens <= budget.maxTokens) return { parts: [...parts] };
  let remaining = budget.maxTokens;
  const kept: ContentPart[] = [];
  const cut: ResultCut = {
    tokens,
    maxTokens: budget.maxTokens,
    shownCharacters: 0,
    totalCharacters: 0,
    omittedTexts: 0,
    omittedImages: 0,
  };
  const lines = { shown: 0, total: 0 };
  for (const part of parts) {
    if (part.type === 'image') {
      const cost = imageTokens(part.data);
      if (cost <= remaining) {
        kept.push(part);
        remaining -= cost;
      } else cut.omittedImages += 1;
      continue;
    }
    cut.totalCharacters += part.text.length;
    lines.total += lineCount(part.text);
    const cost = estimateTextTokens(part.text);
    if (cost <= remaining) {
      kept.push(part);
      remaining -= cost;
      cut.shownCharacters += part.text.length;
      lines.shown += lineCount(part.text);
    } else if (remaining > 0) {
      const text = cleanCut(part.text, prefixWithinBytes(part.text, remaining * bytesPerToken));
      if (text !== '') kept.push({ type: 'text', text });
      remaining = 0;
      cut.shownCharacters += text.length;
      lines.shown += lineCount(text);
    } else cut.omittedTexts += 1;
  }
  kept.push({ type: 'text', text: cutNote(cut, budget, lines) });
  return { parts: kept, cut };
}
