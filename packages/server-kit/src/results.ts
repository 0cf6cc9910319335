import type { CallToolResult, ContentBlock, EmbeddedResource, ResourceLink } from '@modelcontextprotocol/server';

export type { CallToolResult, ContentBlock };

/** A text content block. */
export function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

/**
 * A JSON result: the value serialised as text for models that read text, and the same value as `structuredContent`
 * for clients that read structure. The value must match the tool's `output` schema when the tool declares one.
 */
export function json(value: Record<string, unknown>, options: { indent?: number } = {}): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value, null, options.indent ?? 2) }],
    structuredContent: value,
  };
}

function toBase64(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/** An image content block; `data` is raw bytes or an already base64-encoded string. */
export function image(data: string | Uint8Array, mimeType: string): CallToolResult {
  return { content: [{ type: 'image', data: toBase64(data), mimeType }] };
}

/** An audio content block; `data` is raw bytes or an already base64-encoded string. */
export function audio(data: string | Uint8Array, mimeType: string): CallToolResult {
  return { content: [{ type: 'audio', data: toBase64(data), mimeType }] };
}

/** A resource embedded in the result: text contents, or binary contents given as bytes or base64. */
export function embeddedResource(
  resource: { uri: string; mimeType?: string } & ({ text: string } | { blob: string | Uint8Array }),
): CallToolResult {
  const contents: EmbeddedResource['resource'] =
    'text' in resource
      ? { uri: resource.uri, text: resource.text, ...(resource.mimeType ? { mimeType: resource.mimeType } : {}) }
      : {
          uri: resource.uri,
          blob: toBase64(resource.blob),
          ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
        };
  return { content: [{ type: 'resource', resource: contents }] };
}

/** A link to a resource the client can read later, instead of its contents. */
export function resourceLink(link: Omit<ResourceLink, 'type'>): CallToolResult {
  return { content: [{ type: 'resource_link', ...link }] };
}

/** Joins several results (for example text and an image) into one. */
export function combine(...results: CallToolResult[]): CallToolResult {
  const combined: CallToolResult = { content: results.flatMap((result) => result.content) };
  const structured = results.find((result) => result.structuredContent !== undefined)?.structuredContent;
  if (structured !== undefined) combined.structuredContent = structured;
  return combined;
}

/** True when a handler's return value already has the shape of a tool result. */
export function isToolResult(value: unknown): value is CallToolResult {
  if (typeof value !== 'object' || value === null || !('content' in value)) return false;
  const content = (value as { content: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every((block) => typeof block === 'object' && block !== null && typeof block.type === 'string')
  );
}

const preRenderedMark: unique symbol = Symbol('mcpkit.preRendered');

/**
 * A tool result its handler rendered and held to its budget itself, its structured content already serialized: the
 * kit passes it on without checking it against the output schema or measuring the structured content again (see
 * docs/decisions/0018-pre-rendered-results.md).
 */
export interface PreRenderedResult {
  readonly [preRenderedMark]: true;
  /** The content blocks, usually one text block. */
  readonly content: ContentBlock[];
  /** The structured content as JSON text; it must parse to an object that matches the tool's output schema. */
  readonly structuredJson: string | undefined;
}

/**
 * A pre-rendered result: text (or content blocks) and the structured content as JSON text, both built where the data
 * is (a worker) and already within the tool's budget. The kit checks only the sizes of the two strings; tests check
 * the structured content against the output schema (`checkToolOutput` in `@mcpkit/server-kit/testing`).
 */
export function preRendered(content: string | ContentBlock[], structuredJson?: string): PreRenderedResult {
  return {
    [preRenderedMark]: true,
    content: typeof content === 'string' ? [{ type: 'text', text: content }] : content,
    structuredJson,
  };
}

/** True for a result made by `preRendered`. */
export function isPreRendered(value: unknown): value is PreRenderedResult {
  return typeof value === 'object' && value !== null && preRenderedMark in value;
}

/** The wire form of a pre-rendered result: its structured content parsed once, for the SDK's message object. */
export function fromPreRendered(value: PreRenderedResult): CallToolResult {
  const result: CallToolResult = { content: value.content };
  if (value.structuredJson !== undefined) result.structuredContent = JSON.parse(value.structuredJson);
  return result;
}

/**
 * What a handler may return: a string, a result built with the helpers above (or pre-rendered), or a plain object
 * (sent as JSON).
 */
export type ToolReturn = string | CallToolResult | PreRenderedResult | Record<string, unknown>;

/** Turns whatever a handler returned into a tool result. */
export function toToolResult(value: ToolReturn | undefined | null): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return text(value);
  if (isPreRendered(value)) return fromPreRendered(value);
  if (isToolResult(value)) return value;
  return json(value);
}

/** An `isError` result carrying one readable sentence for the model. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
