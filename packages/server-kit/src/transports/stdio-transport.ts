import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { serializeMessage, specTypeSchemas } from '@modelcontextprotocol/server';
import { splicedLine, splicesStructuredJson } from '../structured-splice.js';

const isId = (value: unknown) => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

/** A request, notification or response in the shape JSON-RPC 2.0 gives it, checked by a few property reads. */
function looksLikeJsonRpc(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  const params = message.params;
  if (typeof message.method === 'string') {
    return (
      (message.id === undefined || isId(message.id)) &&
      (params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params)))
    );
  }
  return (
    isId(message.id) &&
    ('result' in message
      ? typeof message.result === 'object' && message.result !== null && !('error' in message)
      : false)
  );
}

/** The default limit of one stdio message, in bytes: 10 MiB, as in the SDK. */
export const defaultMaxMessageBytes = 10 * 1024 * 1024;

/** The default bytes written and not yet taken by the client above which the transport stops reading: 1 MiB. */
export const defaultMaxUnsentBytes = 1024 * 1024;

/** Bytes kept of each end of a refused line, to find its id. */
const edgeBytes = 512;

/** An id written as the first key of the message, or the second after `"jsonrpc":"2.0"`. */
const leadingId = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,16}|"[^"\\]{0,200}")\s*[,}]/;
/** An id written as the last key of the message, the order the SDK's client writes. */
const trailingId = /[,{]\s*"id"\s*:\s*(-?\d{1,16}|"[^"\\]{0,200}")\s*\}\s*$/;

/** The id of a refused message when its first or last bytes show it, else null. */
function idOf(head: string, tail: string): string | number | null {
  const found = leadingId.exec(head)?.[1] ?? trailingId.exec(tail)?.[1];
  if (found === undefined) return null;
  return JSON.parse(found) as string | number;
}

/** The start of a line, for a log message. */
function preview(line: string): string {
  return line.length > 80 ? `${JSON.stringify(line.slice(0, 80))}…` : JSON.stringify(line);
}

/**
 * Newline-delimited JSON-RPC over a pair of streams, for the server side. Unlike the SDK's stdio transport, a line
 * over the size limit does not close the connection: the rest of it is skipped as it arrives (never buffered), the
 * client gets a JSON-RPC error (-32600) carrying the message's id when its first or last bytes show it, and the
 * session goes on. A line that is not JSON gets a parse error (-32700, id null), a batch (an array) and a request that
 * is not JSON-RPC get invalid request (-32600, with the id when it can be read), each also reported through `onerror`;
 * the SDK's own reader would skip them without a word, leaving the client waiting. While more
 * than `maxUnsentBytes` of output waits for the client to read it, no more input is read. A tool result whose
 * structured content is still JSON text is written with that text in place (`splicesStructuredJson`, ADR 0018).
 */
export class StdioTransport implements Transport {
  /** The session may hand over tool results whose structured content `send` writes in as JSON text. */
  readonly [splicesStructuredJson] = true;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Pieces of the line being read, and their total length. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while skipping the rest of a line over the limit: its first bytes, its last bytes and its length so far. */
  private skipping: { head: string; tail: Buffer; bytes: number } | undefined;
  private started = false;
  private closed = false;
  /** Whether reading is paused until the client takes what was written. */
  private waitingForDrain = false;
  /** What waits for the output to drain (see `afterDrain`). */
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly maxMessageBytes = defaultMaxMessageBytes,
    private readonly maxUnsentBytes = defaultMaxUnsentBytes,
  ) {}

  private readonly onData = (data: Buffer | string) => {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    let start = 0;
    while (start < chunk.length && !this.closed) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      this.take(chunk.subarray(start, end));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
  };

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error);
  };

  /** Adds a piece of the current line, switching to skipping once the line is over the limit. */
  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.skipping.bytes += piece.length;
      this.skipping.tail = Buffer.concat([this.skipping.tail, piece.subarray(-edgeBytes)]).subarray(-edgeBytes);
      return;
    }
    if (this.pendingBytes + piece.length <= this.maxMessageBytes) {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      return;
    }
    const line = Buffer.concat([...this.pending, piece]);
    this.skipping = {
      head: line.subarray(0, edgeBytes).toString('utf8'),
      tail: Buffer.from(line.subarray(-edgeBytes)),
      bytes: line.length,
    };
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** Handles the line that just ended: refuses it when it was over the limit, else parses and delivers it. */
  private endLine(): void {
    const skipped = this.skipping;
    if (skipped) {
      this.skipping = undefined;
      this.refuse(idOf(skipped.head, skipped.tail.toString('utf8')), skipped.bytes);
      return;
    }
    const line = (this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending))
      .toString('utf8')
      .replace(/\r$/, '');
    this.pending = [];
    this.pendingBytes = 0;
    if (line.trim() === '') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.answerError(null, -32700, 'Parse error: the line is not JSON.', `a line that is not JSON: ${preview(line)}`);
      return;
    }
    if (Array.isArray(parsed)) {
      this.answerError(null, -32600, 'Batches are not supported: send one JSON-RPC message per line.', 'a batch');
      return;
    }
    // The common well-formed shapes go straight on (the protocol layer checks them in full); anything else gets the
    // schema, and an answer that says what is wrong.
    if (!looksLikeJsonRpc(parsed) && specTypeSchemas.JSONRPCMessage['~standard'].validate(parsed).issues) {
      const object = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
      const id = typeof object?.id === 'string' || typeof object?.id === 'number' ? object.id : null;
      const problem = `a message that is not JSON-RPC 2.0: ${preview(line)}`;
      // A broken response has no one waiting for an answer (and answering it could start a ping-pong of errors).
      if (object !== undefined && !('method' in object) && ('result' in object || 'error' in object)) {
        this.onerror?.(new Error(`Skipped ${problem}`));
        return;
      }
      this.answerError(id, -32600, 'Invalid request: the message is not a JSON-RPC 2.0 request.', problem);
      return;
    }
    // The message as it came, not the schema's copy: the protocol layer reads wire-only members the schema drops.
    this.onmessage?.(parsed as JSONRPCMessage);
  }

  /** Answers a line that could not be delivered with a JSON-RPC error, and reports it through `onerror`. */
  private answerError(id: string | number | null, code: number, message: string, problem: string): void {
    this.onerror?.(new Error(`Answered ${problem} with error ${code}`));
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } })}\n`).catch(() => {});
  }

  private refuse(id: string | number | null, bytes: number): void {
    const limit = this.maxMessageBytes.toLocaleString('en-US');
    const message = `Message too large: ${bytes.toLocaleString('en-US')} bytes, over the limit of ${limit} bytes for one message on stdio; it was skipped.`;
    this.onerror?.(
      new Error(
        `Refused a message of ${bytes.toLocaleString('en-US')} bytes (id ${JSON.stringify(id)}): the limit is ${limit} bytes.`,
      ),
    );
    this.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`).catch(() => {});
  }

  private write(data: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error('The stdio transport is closed.'));
      if (this.output.write(data)) resolve();
      else this.afterDrain(resolve);
      this.holdInputWhileBacklogged();
    });
  }

  /**
   * Calls `then` once the output drains. Every waiter shares one 'drain' listener: a listener per waiting answer made
   * Node warn of a leak (MaxListenersExceededWarning, on stderr) once more than ten answers waited at once.
   */
  private afterDrain(then: () => void): void {
    if (this.drainWaiters.length === 0) this.output.once('drain', this.onDrain);
    this.drainWaiters.push(then);
  }

  private readonly onDrain = () => {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const waiter of waiters) waiter();
  };

  /**
   * A client that sends requests and never reads the answers would make the output grow without bound: past
   * `maxUnsentBytes` waiting to be taken, stop reading requests until the output drains.
   */
  private holdInputWhileBacklogged(): void {
    if (this.waitingForDrain || this.output.writableLength <= this.maxUnsentBytes) return;
    this.waitingForDrain = true;
    this.input.pause();
    this.afterDrain(() => {
      this.waitingForDrain = false;
      if (!this.closed) this.input.resume();
    });
  }

  /** Starts reading the input stream. */
  async start(): Promise<void> {
    if (this.started) throw new Error('The stdio transport is already started.');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
  }

  /** Sends one message as a line. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.write(splicedLine(message) ?? serializeMessage(message));
  }

  /** Stops reading (the input is paused when nothing else reads it) and reports the close. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.pending = [];
    this.skipping = undefined;
    this.onclose?.();
  }
}
