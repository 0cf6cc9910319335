import type { CallToolResult, ContentBlock } from '../connection/types.js';
import type { ContentPart } from '../models/messages.js';

/** Most characters of one tool result's text passed to the model; past it the text is cut with a note. */
export const defaultMaxResultChars = 100_000;

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
 * A tool result as message parts (see contentBlockParts), with structured content as JSON when there is no text, and
 * the text cut past `maxChars` with a note.
 */
export function toolResultParts(result: CallToolResult, maxChars = defaultMaxResultChars): ContentPart[] {
  const parts = contentBlockParts(result.content ?? []);
  if (!parts.some((part) => part.type === 'text') && result.structuredContent) {
    parts.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  let budget = maxChars;
  return parts.map((part) => {
    if (part.type !== 'text') return part;
    if (part.text.length <= budget) {
      budget -= part.text.length;
      return part;
    }
    const kept = part.text.slice(0, Math.max(0, budget));
    budget = 0;
    return {
      type: 'text',
      text: `${kept}\n[truncated by the host after ${maxChars} characters; ask the tool for less, e.g. a range or a page]`,
    };
  });
}
