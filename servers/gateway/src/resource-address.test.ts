import { describe, expect, it } from 'vitest';
import { ResourceAddresses } from './resource-address.js';

describe('ResourceAddresses', () => {
  it('puts a scheme-safe, unique server prefix before a backend URI and takes it off again', () => {
    const addresses = new ResourceAddresses();
    expect(addresses.outward('files', 'file:///tmp/a.txt')).toBe('files+file:///tmp/a.txt');
    expect(addresses.outward('My_DB', 'db://tables/{name}')).toBe('my-db+db://tables/{name}');
    expect(addresses.outward('my db', 'db://x')).toBe('my-db-2+db://x');
    expect(addresses.outward('9lives', 'x://y')).toBe('lives+x://y');
    expect(addresses.inward('my-db-2+db://x')).toEqual({ server: 'my db', uri: 'db://x' });
    expect(addresses.inward('files+file:///tmp/a+b.txt')).toEqual({ server: 'files', uri: 'file:///tmp/a+b.txt' });
    expect(addresses.inward('unknown+x://y')).toBeUndefined();
    expect(addresses.inward('file:///no-prefix')).toBeUndefined();
  });
});
