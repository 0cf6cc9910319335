import { describe, expect, it } from 'vitest';
import { providerMessage, retryAfterMs } from './provider-request.js';

describe('retryAfterMs', () => {
  it('reads seconds, an HTTP date and retry-after-ms', () => {
    expect(retryAfterMs({ 'retry-after': '2' })).toBe(2000);
    expect(retryAfterMs({ 'retry-after-ms': '150', 'retry-after': '9' })).toBe(150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }, now)).toBe(3000);
    expect(retryAfterMs({})).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
  });
});

describe('providerMessage', () => {
  it("finds the message in OpenAI's and Anthropic's error bodies, or shows the text", () => {
    expect(providerMessage('{"error":{"message":"Invalid key","type":"auth"}}')).toBe('Invalid key');
    expect(providerMessage('{"type":"error","error":{"type":"x","message":"Overloaded"}}')).toBe('Overloaded');
    expect(providerMessage('<html>Bad gateway</html>')).toBe('<html>Bad gateway</html>');
  });
});
