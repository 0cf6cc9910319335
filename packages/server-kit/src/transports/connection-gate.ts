import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Limits of one HTTP connection. */
export interface ConnectionGateOptions {
  /** Requests of one connection handled at once; later pipelined ones wait their turn (default 4). */
  maxInFlight?: number;
  /** Requests of one connection waiting their turn; past it the connection is closed (default 32). */
  maxQueued?: number;
  /** Bytes written to a connection and not yet sent above which no new request of it starts (default 1 MiB). */
  maxUnsentBytes?: number;
}

interface ConnectionState {
  running: number;
  waiting: (() => void)[];
  drainPending: boolean;
  /** Whether the gate paused the socket (and so may resume it); Node pauses sockets of its own too. */
  paused: boolean;
}

/**
 * Holds each HTTP connection to a bounded amount of work and of unsent output, so that a client that pipelines
 * requests and never reads the answers cannot grow the server's memory: a request starts only while its connection
 * has fewer than `maxInFlight` requests running and less than `maxUnsentBytes` waiting to be sent; others wait in
 * order (the socket is paused meanwhile, so nothing more is read), and a connection with more than `maxQueued`
 * waiting is closed. Answers to pipelined requests leave in order anyway, so waiting costs a client nothing.
 */
export function createConnectionGate(options: ConnectionGateOptions = {}) {
  const maxInFlight = options.maxInFlight ?? 4;
  const maxQueued = options.maxQueued ?? 32;
  const maxUnsentBytes = options.maxUnsentBytes ?? 1024 * 1024;
  const states = new WeakMap<Socket, ConnectionState>();

  const pump = (socket: Socket, state: ConnectionState) => {
    while (state.waiting.length > 0 && state.running < maxInFlight) {
      if (socket.writableLength > maxUnsentBytes) {
        if (!state.drainPending) {
          state.drainPending = true;
          socket.once('drain', () => {
            state.drainPending = false;
            pump(socket, state);
          });
        }
        return;
      }
      state.waiting.shift()?.();
    }
    if (state.waiting.length === 0 && state.paused) {
      state.paused = false;
      socket.resume();
    }
  };

  /** Runs `handle` for this request now or once its connection has room; closes a connection that queues too many. */
  return function admit(request: IncomingMessage, response: ServerResponse, handle: () => Promise<void>): void {
    const socket = request.socket;
    let state = states.get(socket);
    if (!state) {
      state = { running: 0, waiting: [], drainPending: false, paused: false };
      states.set(socket, state);
    }
    const connection = state;
    const start = () => {
      connection.running += 1;
      response.once('close', () => {
        connection.running -= 1;
        pump(socket, connection);
      });
      void handle();
    };
    if (
      connection.waiting.length === 0 &&
      connection.running < maxInFlight &&
      socket.writableLength <= maxUnsentBytes
    ) {
      start();
      return;
    }
    if (connection.waiting.length >= maxQueued) {
      socket.destroy();
      return;
    }
    connection.waiting.push(start);
    connection.paused = true;
    socket.pause();
    pump(socket, connection);
  };
}
