import { describe, expect, it } from 'vitest';
import { initialize, startFixture } from './support/child-process.js';

const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw-modern', version: '1' },
};

describe('serveStdio serves both protocol eras', () => {
  it('answers a 2026-07-28 client without a handshake, and asks for input with input_required rounds', async () => {
    const child = startFixture();
    child.send({ id: 1, method: 'server/discover', params: { _meta: modernMeta } });
    const discovered = (await child.response(1)).result as Record<string, unknown>;
    expect(discovered).toMatchObject({
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      resultType: 'complete',
    });

    child.send({ id: 2, method: 'tools/call', params: { name: 'noisy', arguments: {}, _meta: modernMeta } });
    expect((await child.response(2)).result).toMatchObject({
      content: [{ type: 'text', text: 'still only JSON-RPC on stdout' }],
      resultType: 'complete',
    });

    child.send({ id: 3, method: 'tools/call', params: { name: 'ask_name', arguments: {}, _meta: modernMeta } });
    const first = (await child.response(3)).result as {
      resultType: string;
      inputRequests: object;
      requestState: string;
    };
    expect(first.resultType).toBe('input_required');
    expect(first.inputRequests).toMatchObject({
      'elicit-1': { method: 'elicitation/create', params: { message: 'Your name?' } },
    });
    child.send({
      id: 4,
      method: 'tools/call',
      params: {
        name: 'ask_name',
        arguments: {},
        inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } },
        requestState: first.requestState,
        _meta: modernMeta,
      },
    });
    const second = (await child.response(4)).result as {
      resultType: string;
      inputRequests: object;
      requestState: string;
    };
    expect(second.resultType).toBe('input_required');
    expect(Object.keys(second.inputRequests)).toEqual(['elicit-2']);
    child.send({
      id: 5,
      method: 'tools/call',
      params: {
        name: 'ask_name',
        arguments: {},
        inputResponses: { 'elicit-2': { action: 'accept', content: { color: 'blue' } } },
        requestState: second.requestState,
        _meta: modernMeta,
      },
    });
    expect((await child.response(5)).result).toMatchObject({
      content: [{ type: 'text', text: 'hello Ada, who likes blue' }],
      resultType: 'complete',
    });

    child.send({
      id: 6,
      method: 'tools/call',
      params: { name: 'ask_name', arguments: {}, requestState: `${second.requestState}x`, _meta: modernMeta },
    });
    expect((await child.response(6)).error).toMatchObject({
      code: -32602,
      data: { reason: 'invalid_request_state' },
    });
    child.process.stdin.end();
    expect(await child.exited).toBe(0);
  });

  it('still serves a 2025-11-25 client with the initialize handshake, asking with server-to-client requests', async () => {
    const child = startFixture();
    await initialize(child);
    child.send({ id: 1, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    const result = (await child.response(1)).result as Record<string, unknown>;
    expect(result).toEqual({ content: [{ type: 'text', text: 'still only JSON-RPC on stdout' }] });
    expect(result).not.toHaveProperty('resultType');
    child.process.stdin.end();
    expect(await child.exited).toBe(0);
  });
});
