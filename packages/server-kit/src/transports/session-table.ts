/** What the table needs of a session's transport: a way to close it. */
export interface ClosableTransport {
  close(): Promise<void>;
}

/** Limits of a session table. */
export interface SessionTableOptions {
  /** Most sessions open at once, counting those being initialized. */
  maxSessions: number;
  /** A session idle this long is closed by `sweep`. */
  idleMs: number;
  /** A session idle at least this long may be closed to make room for a new one; busier ones never are. */
  evictIdleAfterMs: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface Entry<Transport> {
  transport: Transport;
  lastUsed: number;
  /** Requests and streams still open on this session: a session with any is in use, never idle. */
  open: number;
}

/**
 * The HTTP transport's open sessions: lookup by id, a cap, an idle sweep and closing. A new session needs a
 * reservation (`reserve`): when the table is full, only a session idle for `evictIdleAfterMs` with nothing open
 * may be closed to make room; otherwise the reservation is refused and the caller answers 503. A session with a
 * request in flight or used in the last `evictIdleAfterMs` is never closed for another.
 */
export class SessionTable<Transport extends ClosableTransport> {
  private readonly entries = new Map<string, Entry<Transport>>();
  private reserved = 0;
  private readonly now: () => number;

  constructor(private readonly options: SessionTableOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Number of sessions open (reservations not counted). */
  get size(): number {
    return this.entries.size;
  }

  /** Whether a session with this id is open. */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The transport of an open session. */
  get(id: string): Transport | undefined {
    return this.entries.get(id)?.transport;
  }

  /**
   * Holds a place for a session about to be initialized, closing the longest-idle evictable session when the table
   * is full. False when the table is full of sessions in use: the caller refuses the new session.
   */
  reserve(): boolean {
    if (this.entries.size + this.reserved >= this.options.maxSessions) {
      const now = this.now();
      let idlest: [string, Entry<Transport>] | undefined;
      for (const pair of this.entries) {
        const [, entry] = pair;
        if (entry.open > 0 || now - entry.lastUsed < this.options.evictIdleAfterMs) continue;
        if (!idlest || entry.lastUsed < idlest[1].lastUsed) idlest = pair;
      }
      if (!idlest) return false;
      this.close(idlest[0]);
    }
    this.reserved += 1;
    return true;
  }

  /** Gives back a reservation whose session was never added (the initialize failed). */
  release(): void {
    this.reserved = Math.max(0, this.reserved - 1);
  }

  /** Turns a reservation into an open session. */
  add(id: string, transport: Transport): void {
    this.release();
    this.entries.set(id, { transport, lastUsed: this.now(), open: 0 });
  }

  /** Marks a request or stream as open on a session; the returned function marks it done. Undefined when unknown. */
  use(id: string): (() => void) | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    entry.lastUsed = this.now();
    entry.open += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      entry.open -= 1;
      entry.lastUsed = this.now();
    };
  }

  /** Forgets a session that closed by itself (DELETE, transport closed), without closing it again. */
  forget(id: string): void {
    this.entries.delete(id);
  }

  /** Closes a session and forgets it. */
  close(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    entry.transport.close().catch(() => {});
  }

  /** Closes every session idle for longer than `idleMs` with nothing open. */
  sweep(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      if (entry.open === 0 && now - entry.lastUsed > this.options.idleMs) this.close(id);
    }
  }

  /** Closes every session. */
  closeAll(): void {
    for (const id of [...this.entries.keys()]) this.close(id);
  }
}
