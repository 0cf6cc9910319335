import { describe, expect, it } from 'vitest';
import { SessionTable } from './session-table.js';

function table(maxSessions = 2) {
  let now = 1000;
  const closed: string[] = [];
  const sessions = new SessionTable<{ id: string; close(): Promise<void> }>({
    maxSessions,
    idleMs: 10_000,
    evictIdleAfterMs: 1000,
    now: () => now,
  });
  const transport = (id: string) => ({
    id,
    close: async () => {
      closed.push(id);
    },
  });
  const open = (id: string) => {
    expect(sessions.reserve()).toBe(true);
    sessions.add(id, transport(id));
  };
  return { sessions, closed, open, advance: (ms: number) => (now += ms) };
}

describe('SessionTable', () => {
  it('refuses a place while every session was used recently, and counts places being initialized', () => {
    const { sessions, open } = table();
    open('a');
    expect(sessions.reserve()).toBe(true); // b is being initialized
    expect(sessions.reserve()).toBe(false);
    sessions.release(); // b's initialize failed
    open('c');
    expect(sessions.size).toBe(2);
  });

  it('makes room by closing the longest-idle session once it has been idle long enough', () => {
    const { sessions, closed, open, advance } = table();
    open('a');
    open('b');
    advance(500);
    sessions.use('b')?.();
    advance(600); // a idle 1,100 ms, b 600 ms
    open('c');
    expect(closed).toEqual(['a']);
    expect([sessions.has('a'), sessions.has('b'), sessions.has('c')]).toEqual([false, true, true]);
  });

  it('never closes a session with a request in flight, however long it runs', () => {
    const { sessions, closed, open, advance } = table(1);
    open('a');
    const done = sessions.use('a');
    advance(60_000);
    expect(sessions.reserve()).toBe(false);
    sessions.sweep();
    expect(closed).toEqual([]);
    done?.();
    done?.(); // twice is once
    advance(1000);
    expect(sessions.reserve()).toBe(true);
    expect(closed).toEqual(['a']);
  });

  it('sweeps sessions idle past the idle limit, forgets closed ones without closing them again, closes all', () => {
    const { sessions, closed, open, advance } = table(5);
    open('a');
    open('b');
    open('c');
    advance(5000);
    sessions.use('b')?.();
    advance(6000);
    sessions.sweep();
    expect(closed).toEqual(['a', 'c']);
    sessions.forget('b');
    expect(sessions.use('b')).toBeUndefined();
    open('d');
    sessions.closeAll();
    expect(closed).toEqual(['a', 'c', 'd']);
    expect(sessions.size).toBe(0);
  });
});
