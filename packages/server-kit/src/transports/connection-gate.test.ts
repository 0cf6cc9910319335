import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createConnectionGate } from './connection-gate.js';

/** A socket with just what the gate reads: its unsent bytes, pause and resume, destroy. */
class FakeSocket extends EventEmitter {
  writableLength = 0;
  paused = false;
  destroyed = false;
  pause() {
    this.paused = true;
  }
  resume() {
    this.paused = false;
  }
  destroy() {
    this.destroyed = true;
  }
}

function exchange(socket: FakeSocket) {
  const response = new EventEmitter();
  return {
    request: { socket } as unknown as IncomingMessage,
    response: response as unknown as ServerResponse,
    finish: () => response.emit('close'),
  };
}

describe('createConnectionGate', () => {
  it('runs at most maxInFlight requests of a connection at once, pausing it, and the rest in order', () => {
    const admit = createConnectionGate({ maxInFlight: 2 });
    const socket = new FakeSocket();
    const started: number[] = [];
    const exchanges = [1, 2, 3, 4].map((index) => {
      const one = exchange(socket);
      admit(one.request, one.response, async () => {
        started.push(index);
      });
      return one;
    });
    expect(started).toEqual([1, 2]);
    expect(socket.paused).toBe(true);
    exchanges[0]?.finish();
    expect(started).toEqual([1, 2, 3]);
    exchanges[1]?.finish();
    expect(started).toEqual([1, 2, 3, 4]);
    expect(socket.paused).toBe(false);
  });

  it('starts nothing new while the connection has too much unsent, until it drains', () => {
    const admit = createConnectionGate({ maxUnsentBytes: 100 });
    const socket = new FakeSocket();
    const started: number[] = [];
    const first = exchange(socket);
    admit(first.request, first.response, async () => {
      started.push(1);
    });
    socket.writableLength = 500;
    first.finish();
    const second = exchange(socket);
    admit(second.request, second.response, async () => {
      started.push(2);
    });
    expect(started).toEqual([1]);
    socket.writableLength = 0;
    socket.emit('drain');
    expect(started).toEqual([1, 2]);
  });

  it('closes a connection that queues more than maxQueued requests', () => {
    const admit = createConnectionGate({ maxInFlight: 1, maxQueued: 2 });
    const socket = new FakeSocket();
    for (let index = 0; index < 3; index++) {
      const one = exchange(socket);
      admit(one.request, one.response, async () => {});
    }
    expect(socket.destroyed).toBe(false);
    const one = exchange(socket);
    admit(one.request, one.response, async () => {});
    expect(socket.destroyed).toBe(true);
  });
});
