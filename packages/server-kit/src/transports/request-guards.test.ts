import { describe, expect, it } from 'vitest';
import { isAllowedHost, isAllowedOrigin, isLoopbackHost } from './request-guards.js';

describe('isLoopbackHost', () => {
  it('knows the loopback names and addresses', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.8.9.10', '::1', '[::1]', 'app.localhost']) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
    for (const host of ['0.0.0.0', '10.0.0.1', '127.0.0.1.evil.com', 'localhost.evil.com', 'evil.com', '']) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});

describe('isAllowedHost (DNS rebinding)', () => {
  it('accepts loopback Host headers with or without a port', () => {
    for (const header of ['127.0.0.1:8080', 'localhost:3000', 'localhost', '[::1]:9000', '[::1]']) {
      expect(isAllowedHost(header, []), header).toBe(true);
    }
  });

  it('refuses a missing header and foreign names, even ones that resolve to loopback', () => {
    expect(isAllowedHost(undefined, [])).toBe(false);
    for (const header of ['evil.example.com', 'evil.example.com:8080', '192.168.1.5:80', 'localhost.evil.com']) {
      expect(isAllowedHost(header, []), header).toBe(false);
    }
  });

  it('accepts names the operator allowed, by name or with the port', () => {
    expect(isAllowedHost('mcp.internal:8080', ['mcp.internal'])).toBe(true);
    expect(isAllowedHost('MCP.internal:8080', ['mcp.internal:8080'])).toBe(true);
    expect(isAllowedHost('other.internal:8080', ['mcp.internal'])).toBe(false);
  });
});

describe('isAllowedOrigin', () => {
  it('accepts loopback http(s) origins and exact allowed ones', () => {
    expect(isAllowedOrigin('http://localhost:5173', [])).toBe(true);
    expect(isAllowedOrigin('https://127.0.0.1', [])).toBe(true);
    expect(isAllowedOrigin('https://app.example.com', ['https://app.example.com'])).toBe(true);
  });

  it('refuses foreign, malformed and non-http origins', () => {
    expect(isAllowedOrigin('http://evil.example.com', [])).toBe(false);
    expect(isAllowedOrigin('https://app.example.com.evil.com', ['https://app.example.com'])).toBe(false);
    expect(isAllowedOrigin('null', [])).toBe(false);
    expect(isAllowedOrigin('file://localhost', [])).toBe(false);
  });
});
