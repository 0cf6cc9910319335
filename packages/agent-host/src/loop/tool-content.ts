import type { CallToolResult } from '../connection/types.js';
import type { ContentPart } from '../models/messages.js';

/** Most characters of one tool result's text passed to the model; past it the text is cut with a note. */
export const defaultMaxResultChars = 100_000;

/**
 * A tool result as message parts both providers accept: text and images as they are, audio and binary resources
 * described, resource links as text, structured content as JSON when there is no text.
 */
export function toolResultParts(result: CallToolResult, maxChars = defaultMaxResultChars): ContentPart[] {
  const parts: ContentPart[] = [];
  for (const block of result.content ?? []) {
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
