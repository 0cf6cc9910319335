/** What a cut result's note tells the model to do, unless the tool says otherwise. */
export const defaultHint = 'Ask for less: narrow the request, or use the paging arguments the tool accepts.';

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
  const how = hint ?? defaultHint;
  return `[truncated: showed ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} characters. ${how}]`;
}

/**
 * `message` when it has at most `limit` characters, else its head cut at a clean boundary and a note saying how much
 * was shown, about `limit` characters in all: for error sentences, which can quote what they were given (a huge
 * argument, an engine's message that repeats its input, a schema's complaint naming a huge key).
 */
export function boundedSentence(message: string, limit: number): string {
  if (message.length <= limit) return message;
  const total = message.length.toLocaleString('en-US');
  const note = (shown: number) =>
    ` [the message was cut: showed ${shown.toLocaleString('en-US')} of ${total} characters]`;
  const kept = cutAtBoundary(message, Math.max(0, limit - note(limit).length));
  return `${kept}${note(kept.length)}`;
}

/** Characters of a JSON-RPC error's message at most: a resource's or a prompt's ToolError, an unknown name. */
export const requestErrorChars = 4000;
