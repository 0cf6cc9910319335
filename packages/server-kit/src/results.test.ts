import { describe, expect, it } from 'vitest';
import {
  audio,
  combine,
  embeddedResource,
  errorResult,
  image,
  isToolResult,
  json,
  resourceLink,
  text,
  toToolResult,
} from './results.js';

const bytes = new Uint8Array([1, 2, 3, 250]);
const base64 = Buffer.from(bytes).toString('base64');

describe('result helpers', () => {
  it('builds text and JSON results, JSON with the same value as structuredContent', () => {
    expect(text('hi')).toEqual({ content: [{ type: 'text', text: 'hi' }] });
    expect(json({ a: 1 })).toEqual({
      content: [{ type: 'text', text: '{\n  "a": 1\n}' }],
      structuredContent: { a: 1 },
    });
  });

  it('encodes image and audio bytes as base64, and passes base64 strings through', () => {
    expect(image(bytes, 'image/png')).toEqual({ content: [{ type: 'image', data: base64, mimeType: 'image/png' }] });
    expect(audio(base64, 'audio/wav')).toEqual({ content: [{ type: 'audio', data: base64, mimeType: 'audio/wav' }] });
    // a view into a larger buffer encodes only its own bytes
    const view = new Uint8Array(new Uint8Array([9, 9, 1, 2, 3, 250, 9]).buffer, 2, 4);
    expect(image(view, 'image/png').content[0]).toMatchObject({ data: base64 });
  });

  it('embeds text and binary resources, and links to resources', () => {
    expect(embeddedResource({ uri: 'a://b', mimeType: 'text/plain', text: 'x' })).toEqual({
      content: [{ type: 'resource', resource: { uri: 'a://b', mimeType: 'text/plain', text: 'x' } }],
    });
    expect(embeddedResource({ uri: 'a://c', blob: bytes })).toEqual({
      content: [{ type: 'resource', resource: { uri: 'a://c', blob: base64 } }],
    });
    expect(resourceLink({ uri: 'a://d', name: 'd', mimeType: 'text/csv' })).toEqual({
      content: [{ type: 'resource_link', uri: 'a://d', name: 'd', mimeType: 'text/csv' }],
    });
  });

  it('combines results in order, keeping the structured content of the one that has it', () => {
    const combined = combine(text('first'), json({ n: 2 }), image(base64, 'image/png'));
    expect(combined.content.map((block) => block.type)).toEqual(['text', 'text', 'image']);
    expect(combined.structuredContent).toEqual({ n: 2 });
    expect(combine(text('a')).structuredContent).toBeUndefined();
  });

  it('shapes what a handler returns', () => {
    expect(toToolResult('x')).toEqual(text('x'));
    expect(toToolResult({ rows: [] })).toEqual(json({ rows: [] }));
    expect(toToolResult(null)).toEqual({ content: [] });
    const result = text('kept');
    expect(toToolResult(result)).toBe(result);
    // an object with a `content` field that is not a list of blocks is data, not a result
    expect(isToolResult({ content: 'plain words' })).toBe(false);
    expect(toToolResult({ content: 'plain words' })).toEqual(json({ content: 'plain words' }));
    expect(errorResult('No.')).toEqual({ content: [{ type: 'text', text: 'No.' }], isError: true });
  });
});
