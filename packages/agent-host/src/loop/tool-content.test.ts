import { describe, expect, it } from 'vitest';
import { toolResultParts } from './tool-content.js';

describe('toolResultParts', () => {
  it('keeps text and images, describes audio and binary resources, and reads links and embedded text', () => {
    const parts = toolResultParts({
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt' },
        { type: 'resource', resource: { uri: 'note://x', text: 'embedded' } },
        { type: 'resource', resource: { uri: 'blob://y', blob: 'AAAA' } },
      ],
    });
    expect(parts).toEqual([
      { type: 'text', text: 'hello' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: '[audio audio/wav omitted]' },
      { type: 'text', text: 'Resource: file:///a.txt (a.txt)' },
      { type: 'text', text: 'note://x:\nembedded' },
      { type: 'text', text: '[binary resource blob://y omitted]' },
    ]);
  });

  it('uses structured content when there is no text', () => {
    expect(toolResultParts({ content: [], structuredContent: { rows: 2 } })).toEqual([
      { type: 'text', text: '{"rows":2}' },
    ]);
  });
});
