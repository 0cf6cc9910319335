/** A piece of message content the host can pass to either provider. */
export type ContentPart = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** A tool call the model asked for. */
export interface ToolCall {
  /** The provider's id of the call; the result must carry it back. */
  id: string;
  /** The model-facing tool name. */
  name: string;
  /** The parsed arguments (an empty object when they were not valid JSON). */
  arguments: Record<string, unknown>;
  /** The raw argument text when it was not a JSON object, so the loop can tell the model. */
  invalidArguments?: string;
}

/** The answer to one tool call. */
export interface ToolResult {
  callId: string;
  /** The model-facing tool name. */
  name: string;
  content: ContentPart[];
  isError: boolean;
}

/** One message of a conversation, independent of the provider's wire format. */
export type Message =
  | { role: 'user'; content: ContentPart[] }
  | { role: 'assistant'; text: string; toolCalls: ToolCall[] }
  | { role: 'tool'; results: ToolResult[] };

/** Tokens a request used, as the provider reported them (0 when it did not). */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

/** The text of the text parts, joined. */
export function partsText(parts: ContentPart[]): string {
  return parts
    .filter((part): part is { type: 'text'; text: string } => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

/** Parses streamed tool-call arguments; anything but a JSON object is kept raw so the model can be told. */
export function parseArguments(text: string): Pick<ToolCall, 'arguments' | 'invalidArguments'> {
  if (text.trim() === '') return { arguments: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { arguments: value as Record<string, unknown> };
    }
  } catch {
    // Reported below.
  }
  return { arguments: {}, invalidArguments: text };
}
