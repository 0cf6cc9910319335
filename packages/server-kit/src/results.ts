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

/** What a handler may return: a string, a result built with the helpers above, or a plain object (sent as JSON). */
export type ToolReturn = string | CallToolResult | Record<string, unknown>;

/** Turns whatever a handler returned into a tool result. */
export function toToolResult(value: ToolReturn | undefined | null): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return text(value);
  if (isToolResult(value)) return value;
  return json(value);
}

/** An `isError` result carrying one readable sentence for the model. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
