import { beforeEach, describe, expect, it, vi } from 'vitest';

describe('the parts loaded on first use', () => {
  beforeEach(() => {
    vi.resetModules();
    vi.doUnmock('./editing/atomic-write.js');
  });

  it('forgets a failed load, so that the next call loads the part again', async () => {
    // A chunk that cannot be read once (too many open files): the first call fails, the next one loads it.
    vi.doMock('./editing/atomic-write.js', () => {
      throw new Error('atomic write unreadable');
    });
    const { editing } = await import('./loaded-on-first-use.js');
    await expect(editing()).rejects.toThrow();
    vi.doUnmock('./editing/atomic-write.js');
    const loaded = await editing();
    expect(typeof loaded.writeAtomically).toBe('function');
    // Once loaded, every call gets the same part.
    expect(await editing()).toBe(loaded);
  });
});
