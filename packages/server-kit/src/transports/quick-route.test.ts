import { classifyInboundRequest, isJSONRPCNotification, isJSONRPCRequest } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { quickRoute } from './quick-route.js';

const isMessage = (body: unknown) => isJSONRPCRequest(body) || isJSONRPCNotification(body);
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } };
const modernCall = { ...call, params: { ...call.params, _meta: envelope } };

const bodies: [string, unknown][] = [
  ['a legacy call', call],
  ['a legacy notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a modern call', modernCall],
  ['a modern notification', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: envelope } }],
  [
    'a modern call with a bad envelope',
    { ...call, params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': 7 } } },
  ],
  [
    'a claim naming a legacy revision',
    { ...call, params: { _meta: { ...envelope, 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } },
  ],
  ['initialize', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } }],
  ['initialize with a claim', { jsonrpc: '2.0', id: 0, method: 'initialize', params: { _meta: envelope } }],
  ['a posted result', { jsonrpc: '2.0', id: 3, result: {} }],
  ['a posted error', { jsonrpc: '2.0', id: 3, error: { code: 1, message: 'no' } }],
  ['a result that names a method', { jsonrpc: '2.0', id: 3, method: 'tools/call', result: {} }],
  ['a batch', [call, call]],
  ['no jsonrpc member', { id: 1, method: 'tools/call' }],
  ['a fractional id', { ...call, id: 1.5 }],
  ['params that are not an object', { ...call, params: [1, 2] }],
  ['a number', 42],
  ['null', null],
];
const headers: (string | undefined)[] = [undefined, '2025-11-25', '2025-06-18', '2026-07-28', ' 2026-07-28', 'garbage'];

describe('quickRoute', () => {
  it('agrees with the SDK classification wherever it answers', () => {
    let answered = 0;
    for (const [label, body] of bodies) {
      for (const header of headers) {
        for (const httpMethod of ['POST', 'GET']) {
          const quick = quickRoute(httpMethod, body, header, isMessage);
          if (quick === undefined) continue;
          answered += 1;
          const sdk = classifyInboundRequest({ httpMethod, protocolVersionHeader: header, body });
          expect(`${label} (${header}, ${httpMethod}): ${sdk.kind === 'legacy' ? 'legacy' : 'modern'}`).toBe(
            `${label} (${header}, ${httpMethod}): ${quick}`,
          );
        }
      }
    }
    expect(answered).toBeGreaterThan(10);
  });

  it('answers the common calls of both eras without the SDK', () => {
    expect(quickRoute('POST', call, '2025-11-25', isMessage)).toBe('legacy');
    expect(quickRoute('POST', call, undefined, isMessage)).toBe('legacy');
    expect(quickRoute('POST', modernCall, '2026-07-28', isMessage)).toBe('modern');
    expect(quickRoute('POST', { jsonrpc: '2.0', id: 0, method: 'initialize' }, undefined, isMessage)).toBeUndefined();
  });
});
