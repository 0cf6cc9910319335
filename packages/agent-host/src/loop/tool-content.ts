import type { CallToolResult, ContentBlock } from '../connection/types.js';
import type { ContentPart } from '../models/messages.js';

/**
 * MCP content blocks (of a tool result or a prompt) as message parts both providers accept: text and images as they
 * are, embedded text resources as their URI and text, audio and binary resources described, resource links as text.
 */
export function contentBlockParts(blocks: readonly ContentBlock[]): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image') parts.push({ type: 'image', data: block.data, mimeType: block.mimeType });
    else if (block.type === 'audio') parts.push({ type: 'text', text: `[audio ${block.mimeType} omitted]` });
    else if (block.type === 'resource_link') {
      parts.push({ type: 'text', text: `Resource: ${block.uri}${block.name ? ` (${block.name})` : ''}` });
    } else if (block.type === 'resource') {
      const resource = block.resource;
      parts.push({
        type: 'text',
        text: 'text' in resource ? `${resource.uri}:\n${resource.text}` : `[binary resource ${resource.uri} omitted]`,
      });
    }
  }
  return parts;
}

/**
 * A tool result as message parts (see contentBlockParts), with structured content as JSON when there is no text; the
 * budget of what reaches the model is applied afterwards (result-budget.ts).
 */
export function toolResultParts(result: CallToolResult): ContentPart[] {
  const parts = contentBlockParts(result.content ?? []);
  if (!parts.some((part) => part.type === 'text') && result.structuredContent !== undefined) {
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  return parts;
}
