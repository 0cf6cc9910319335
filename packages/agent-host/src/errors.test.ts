import { describe, expect, it } from 'vitest';
import { errorMessage } from './errors.js';

describe('errorMessage', () => {
  it('gives the message of an Error and the text of anything else', () => {
    expect(errorMessage(new Error('disk full'))).toBe('disk full');
    expect(errorMessage('plain words')).toBe('plain words');
    expect(errorMessage(42)).toBe('42');
  });

  it('keeps one SDK prefix where a server sent its own McpError message and the client wrapped it again', () => {
    // What the SDK client's McpError says for a kit server's "unknown prompt" (see test/connections.test.ts).
    const received = new Error('MCP error -32602: MCP error -32602: Unknown prompt: missing');
    expect(errorMessage(received)).toBe('MCP error -32602: Unknown prompt: missing');
  });

  it('collapses the repetition inside a longer sentence and leaves a single prefix alone', () => {
    const nested = new Error('Server "db" did not start: MCP error -32603: MCP error -32603: MCP error -32603: boom');
    expect(errorMessage(nested)).toBe('Server "db" did not start: MCP error -32603: boom');
    expect(errorMessage(new Error('MCP error -32001: Request timed out'))).toBe('MCP error -32001: Request timed out');
  });
});
