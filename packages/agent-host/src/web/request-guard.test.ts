import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { refuseRequest } from './request-guard.js';

const token = 'secret-token';
const check = (headers: Record<string, string>, path = `/?token=${token}`, listen?: string) =>
  refuseRequest({ headers } as unknown as IncomingMessage, new URL(path, 'http://page.invalid'), {
    token,
    port: 8080,
    ...(listen ? { listen } : {}),
  })?.status;

describe('refuseRequest', () => {
  it('lets in loopback names on its own port with the token', () => {
    expect(check({ host: '127.0.0.1:8080' })).toBeUndefined();
    expect(check({ host: 'localhost:8080', origin: 'http://localhost:8080' })).toBeUndefined();
    expect(check({ host: '[::1]:8080' })).toBeUndefined();
    expect(check({ host: '127.0.0.1:8080', 'x-mcpkit-token': token }, '/events')).toBeUndefined();
  });

  it('refuses other hosts, ports, origins and tokens', () => {
    expect(check({ host: 'evil.example:8080' })).toBe(421);
    expect(check({ host: '127.0.0.1:8081' })).toBe(421);
    expect(check({})).toBe(421);
    expect(check({ host: '127.0.0.1:8080', origin: 'http://evil.example' })).toBe(403);
    expect(check({ host: '127.0.0.1:8080', origin: 'https://127.0.0.1:8080' })).toBe(403);
    expect(check({ host: '127.0.0.1:8080', origin: 'null' })).toBe(403);
    expect(check({ host: '127.0.0.1:8080' }, '/')).toBe(401);
    expect(check({ host: '127.0.0.1:8080' }, '/?token=secret-tokem')).toBe(401);
  });

  it('with --listen on a wildcard address takes IP literals but still no domain names', () => {
    expect(check({ host: '192.168.1.20:8080' }, undefined, '0.0.0.0')).toBeUndefined();
    expect(check({ host: 'evil.example:8080' }, undefined, '0.0.0.0')).toBe(421);
    expect(check({ host: '192.168.1.20:8080' })).toBe(421);
  });
});
