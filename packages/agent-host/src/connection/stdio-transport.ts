import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { type JSONRPCMessage, parseJSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { endGroup, trackGroup } from './process-groups.js';
import type { ServerLogSink } from './types.js';

/** What starts a stdio server. */
export interface StdioTransportOptions {
  /** The server's config name; prefixes its stderr lines. */
  name: string;
  command: string;
  args: string[];
  /** Added to the host's environment. */
  env: Record<string, string>;
  cwd?: string;
  /** Where the child's stderr lines and notes about its stdout go. */
  log: ServerLogSink;
}

const maxLineLength = 10 * 1024 * 1024;

/**
 * A stdio client transport that starts the server in its own process group (so closing it ends everything the
 * server started), forwards stderr line by line with the server's name, and skips lines on stdout that are not
 * JSON-RPC instead of failing the connection: a server printing a banner still works.
 */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private closed = false;
  /** How many stdout lines were skipped as not JSON-RPC. */
  garbageLines = 0;
  /** How the process ended (`exited with code 1`, `was killed by SIGKILL`), once it has. */
  exitDescription: string | undefined;

  constructor(private readonly options: StdioTransportOptions) {}

  /**
   * The server's process id, once started. With `stderr`, it marks this transport as stdio to the SDK's version
   * negotiation, so that a `server/discover` probe with no answer means a legacy server rather than an outage.
   */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The server's stderr stream, once started (its lines already go to the log sink). */
  get stderr(): Readable | null {
    return this.child?.stderr ?? null;
  }

  start(): Promise<void> {
    const { name, command, args, env, cwd, log } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...process.env, ...env },
        ...(cwd !== undefined ? { cwd } : {}),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (error) => {
        this.finish();
        reject(new Error(`cannot start "${command}": ${error.message}`));
      });
      child.once('spawn', () => {
        trackGroup(child);
        resolve();
      });
      child.once('exit', (code, signal) => {
        this.exitDescription = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.finish();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));

      const stdout = createInterface({ input: child.stdout!, crlfDelay: Number.POSITIVE_INFINITY });
      stdout.on('line', (line) => this.receive(line));
      const stderr = createInterface({ input: child.stderr!, crlfDelay: Number.POSITIVE_INFINITY });
      stderr.on('line', (line) => log(name, line));
    });
  }

  private receive(line: string): void {
    if (line.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      if (line.length > maxLineLength) throw new Error('line too long');
      message = parseJSONRPCMessage(JSON.parse(line));
    } catch {
      this.garbageLines += 1;
      // Tell the person once per few lines; a chatty server must not flood the trace.
      if (this.garbageLines <= 3) {
        this.options.log(this.options.name, `ignored a line on stdout that is not JSON-RPC: ${line.slice(0, 200)}`);
      }
      return;
    }
    // The SDK's client runs a notification's handler one microtask after receiving it, but settles a response (and
    // forgets the call's progress handler) at once: a call's last progress and its result read from one chunk would
    // lose that progress. A response therefore goes one microtask later, after the handlers of what came before it.
    if ('id' in message && !('method' in message)) queueMicrotask(() => this.onmessage?.(message));
    else this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed) {
        reject(new Error('not connected'));
        return;
      }
      stdin.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return this.finish();
    child.stdin?.end();
    await endGroup(child);
    this.finish();
  }
}
