import { describe, expect, it } from 'vitest';
import { AddressRefusedError, addressRefusal, assertHostAllowed } from './ssrf-guard.js';

const strict = { allowPrivate: false };
const intranet = { allowPrivate: true };

describe('addressRefusal', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    // IPv4-compatible (::/96, deprecated): a host with a 6-in-4 tunnel (sit0) sends them to the IPv4 address.
    '::7f00:1',
    '::10.0.0.1',
  ])('refuses %s by default', (address) => {
    expect(addressRefusal(address, strict)).toBeDefined();
  });

  it.each(['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '::ffff:1.1.1.1'])('allows public %s', (address) => {
    expect(addressRefusal(address, strict)).toBeUndefined();
  });

  it('allows private addresses with allowPrivate but never cloud metadata', () => {
    expect(addressRefusal('127.0.0.1', intranet)).toBeUndefined();
    expect(addressRefusal('10.0.0.5', intranet)).toBeUndefined();
    expect(addressRefusal('169.254.169.254', intranet)).toMatch(/metadata/);
    expect(addressRefusal('::ffff:169.254.169.254', intranet)).toMatch(/metadata/);
    expect(addressRefusal('fd00:ec2::254', intranet)).toMatch(/metadata/);
    expect(addressRefusal('64:ff9b::a9fe:a9fe', intranet)).toMatch(
      /carries the cloud metadata address 169.254.169.254/,
    );
    expect(addressRefusal('2002:a9fe:a9fe::', intranet)).toMatch(/carries the cloud metadata address 169.254.169.254/);
    expect(addressRefusal('::a9fe:a9fe', intranet)).toMatch(/carries the cloud metadata address 169.254.169.254/);
    expect(addressRefusal('64:ff9b::808:808', intranet)).toBeUndefined();
  });
});

describe('assertHostAllowed', () => {
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://localhost/',
    'http://app.localhost/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://metadata.google.internal/',
    'http://10.0.0.1/',
    'http://[fd00:ec2::254]/',
  ])('refuses %s before connecting', (url) => {
    expect(() => assertHostAllowed(new URL(url), strict)).toThrow(AddressRefusedError);
  });

  it('lets names through to the connect-time checks', () => {
    expect(() => assertHostAllowed(new URL('https://example.com/'), strict)).not.toThrow();
  });
});
