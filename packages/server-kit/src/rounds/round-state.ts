import {
  createRequestStateCodec,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { digest } from './digest.js';

/** The request a round belongs to: its method, the tool or prompt name or resource URI, and its arguments. */
export interface RoundCall {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** The tool or prompt name, or the resource URI. */
  target: string;
  /** The request's arguments (tools and prompts); compared by digest across rounds. */
  arguments?: unknown;
}

/** One answered ask: its key, the digest of its question, and the client's answer. */
export type RecordedAnswer = [key: string, question: string, answer: unknown];

/** One ask the client has been sent and not answered yet: its key and the digest of its question. */
export type OpenAsk = [key: string, question: string];

/** What the signed request state carries from one round to the next (and nothing else does). */
export interface RoundState {
  v: 1;
  /** The method of the call. */
  m: RoundCall['method'];
  /** The tool or prompt name, or the resource URI. */
  n: string;
  /** The digest of the call's arguments. */
  a: string;
  /** How many `input_required` results this call has had. */
  c: number;
  /** The answers recorded so far, in the order they were recorded. */
  r: RecordedAnswer[];
  /** The asks of the last round, still waiting for answers. */
  p: OpenAsk[];
}

/** Why a request state was refused, as told to the client in `data.detail`. */
export type RoundStateRejection = 'altered' | 'expired' | 'other_call';

/** Options of {@link createRoundStateCodec}. */
export interface RoundStateCodecOptions {
  /** The HMAC key, at least 32 bytes; every instance that may receive a retry must share it. */
  key: string | Uint8Array;
  /** How long a minted state stays valid, in seconds (default 600). */
  ttlSeconds?: number;
}

/** Seals round state into the string a client echoes, and opens it again on the retry. */
export interface RoundStateCodec {
  /** The state a call starts with, before any round. */
  initial(call: RoundCall): RoundState;
  /** Signs the state into an expiring `requestState` string. */
  seal(state: RoundState): Promise<string>;
  /** Verifies an echoed `requestState` and checks that it belongs to this call; throws a -32602 ProtocolError if not. */
  open(requestState: unknown, call: RoundCall): Promise<RoundState>;
}

const startOver = 'Send the request again without requestState and inputResponses to start over.';

function rejected(detail: RoundStateRejection, sentence: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `${sentence} ${startOver}`, {
    reason: 'invalid_request_state',
    detail,
  });
}

function isRoundState(value: unknown): value is RoundState {
  if (typeof value !== 'object' || value === null) return false;
  const state = value as Partial<RoundState>;
  return (
    state.v === 1 &&
    typeof state.m === 'string' &&
    typeof state.n === 'string' &&
    typeof state.a === 'string' &&
    typeof state.c === 'number' &&
    Array.isArray(state.r) &&
    Array.isArray(state.p)
  );
}

/** Creates the codec for round state: the SDK's HMAC-SHA256 request-state codec plus the kit's "same call" check. */
export function createRoundStateCodec(options: RoundStateCodecOptions): RoundStateCodec {
  const ttlSeconds = options.ttlSeconds ?? 600;
  const codec = createRequestStateCodec<RoundState>({ key: options.key, ttlSeconds });
  // The codec's context is only read by a bind callback, which this codec does not configure.
  const noContext = undefined as unknown as ServerContext;
  return {
    initial(call) {
      // Most calls never ask: the digest of their arguments is only computed when a state is sealed.
      let argumentsDigest: string | undefined;
      return {
        v: 1,
        m: call.method,
        n: call.target,
        get a() {
          argumentsDigest ??= digest(call.arguments ?? {});
          return argumentsDigest;
        },
        c: 0,
        r: [],
        p: [],
      };
    },
    seal: (state) => codec.mint(state),
    async open(requestState, call) {
      if (typeof requestState !== 'string') {
        throw rejected(
          'altered',
          'The requestState of this request is not a string, so it was not issued by this server.',
        );
      }
      let state: RoundState;
      try {
        state = await codec.verify(requestState, noContext);
      } catch (error) {
        if (error instanceof Error && error.message === 'expired') {
          throw rejected('expired', `The requestState of this request has expired (it is valid for ${ttlSeconds} s).`);
        }
        throw rejected(
          'altered',
          'The requestState of this request was altered or signed by another server (its signature does not match).',
        );
      }
      if (!isRoundState(state)) {
        throw rejected('altered', 'The requestState of this request was not issued for a call of this server.');
      }
      if (state.m !== call.method || state.n !== call.target || state.a !== digest(call.arguments ?? {})) {
        throw rejected(
          'other_call',
          `The requestState of this request belongs to another request (a different method, name, URI or arguments than this ${call.method}).`,
        );
      }
      return state;
    },
  };
}
