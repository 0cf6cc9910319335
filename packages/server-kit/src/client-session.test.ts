import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { createServer } from './create-server.js';

/** A transport whose client has gone: every answer to a request numbered 10 or more finds no one to take it. */
function abandonedTransport(): Transport & { deliver(message: JSONRPCMessage): void } {
  const transport: Transport & { deliver(message: JSONRPCMessage): void } = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      if ('id' in message && typeof message.id === 'number' && message.id >= 10 && !('method' in message)) {
        throw new Error(`No connection established for request ID: ${message.id}`);
      }
    },
    deliver(message) {
      transport.onmessage?.(message);
    },
  };
  return transport;
}

describe('a session whose client went away', () => {
  it('logs the lost answers at most once, and never as a warning', async () => {
    const server = createServer({ name: 'left', version: '1', logLevel: 'debug' });
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      const transport = abandonedTransport();
      await server.connect(transport);
      transport.deliver({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gone', version: '1' } },
      });
      transport.deliver({ jsonrpc: '2.0', method: 'notifications/initialized' });
      for (let id = 10; id < 15; id++) transport.deliver({ jsonrpc: '2.0', id, method: 'ping' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // a positive control: a real protocol error is still a warning
      transport.deliver({ jsonrpc: '2.0', id: 99, result: {} });
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      spy.mockRestore();
      await server.close();
    }
    const lost = written.filter((line) => /No connection established|went away/.test(line));
    expect(lost.length).toBeLessThanOrEqual(1);
    expect(lost.filter((line) => /warning/.test(line))).toEqual([]);
    expect(written.filter((line) => /warning/.test(line))).toHaveLength(1);
  });
});
