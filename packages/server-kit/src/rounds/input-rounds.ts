import {
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type CreateMessageResultWithTools,
  type ElicitRequestFormParams,
  type ElicitResult,
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  type ListRootsResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type StandardSchemaV1Sync,
  specTypeSchemas,
} from '@modelcontextprotocol/server';
import { ToolError } from '../errors.js';
import { isThenable } from '../is-thenable.js';
import { digest } from './digest.js';
import { InputPending } from './input-pending.js';
import type { RoundCall, RoundState, RoundStateCodec } from './round-state.js';

/** The three kinds of input a handler can ask the client for. */
export type AskKind = 'elicit' | 'sample' | 'roots';

/** Options of one ask. */
export interface AskOptions {
  /** The key of the ask in `inputRequests`; by default `<kind>-<n>`, n counting every ask of the call from 1. */
  key?: string;
}

/** The asks a handler makes in the modern era; each resolves with the client's answer, or suspends the round. */
export interface InputAsker {
  /** Asks the user to fill in a form (form-mode elicitation). */
  elicit(
    params: { message: string; requestedSchema: ElicitRequestFormParams['requestedSchema'] },
    options?: AskOptions,
  ): Promise<ElicitResult>;
  /** Asks the client's model for a completion. */
  sample(
    params: CreateMessageRequestParams,
    options?: AskOptions,
  ): Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** Asks for the client's roots. */
  roots(options?: AskOptions): Promise<ListRootsResult>;
}

/** What the client sent with the request, besides the call itself. */
export interface RoundRequest {
  /** The echoed `requestState`, if any (as received: not trusted). */
  requestState?: unknown;
  /** The answers of this round, keyed like the asks (as received: not trusted). */
  inputResponses?: unknown;
  /** Keys whose answers the SDK dropped because they were not response objects. */
  droppedInputResponseKeys?: readonly string[];
  /** The capabilities the client declared in the request's `_meta`. */
  clientCapabilities?: ClientCapabilities;
}

/** How a round ended: the handler completed, or it asked for input and the client must retry. */
export type RoundOutcome<Value> =
  | { kind: 'complete'; value: Value }
  | { kind: 'input_required'; result: InputRequiredResult };

/** Options of {@link createInputRounds}. */
export interface InputRoundsOptions {
  /** Signs and checks the state carried between rounds. */
  codec: RoundStateCodec;
  /** How many times one call may ask for input (default 8, as the SDK's legacy shim). */
  maxRounds?: number;
  /** How many bytes of answers one call may record (default 64 KiB); the state carries all of them. */
  maxRecordedBytes?: number;
}

/** Runs handlers in rounds: asks suspend the call into an `input_required` result, the retry replays it. */
export interface InputRounds {
  /**
   * Runs `handler` with an asker. Answers recorded in the request state replay at once, answers in this round's
   * `inputResponses` are checked and recorded, and any other ask suspends the round: one event-loop turn later (so
   * that asks made together join it) the handler's signal is aborted with {@link InputPending}, what it does next
   * is discarded, and the outcome is `input_required` with every open ask and a new signed state. A handler that
   * answers synchronously (it cannot have been suspended) completes the round at once.
   */
  run<Value>(
    call: RoundCall,
    request: RoundRequest,
    signal: AbortSignal,
    handler: (asker: InputAsker, signal: () => AbortSignal) => Value | Promise<Value>,
  ): Promise<RoundOutcome<Value>>;
}

interface Ask {
  kind: AskKind;
  request: InputRequest;
  schema: StandardSchemaV1Sync;
  capability: keyof ClientCapabilities;
  options?: AskOptions;
}

const capabilitySentence: Record<AskKind, string> = {
  elicit: 'This request does not declare the elicitation capability, so the server cannot ask the user.',
  sample: 'This request does not declare the sampling capability, so the server cannot ask the client model.',
  roots: 'This request does not declare the roots capability, so the server cannot ask for the client roots.',
};

const answerName: Record<AskKind, string> = {
  elicit: 'an elicitation result',
  sample: 'a sampling result',
  roots: 'a roots list',
};

function invalidAnswer(key: string, kind: AskKind, detail: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `The answer in inputResponses under '${key}' is not ${answerName[kind]}: ${detail}.`,
  );
}

function notDeterministic(call: RoundCall, key: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `The ${call.method} handler of '${call.target}' asked a different question under '${key}' than the one the client answered. A handler that asks for input runs again from the start on every round, so it must ask the same questions in the same order when given the same arguments and answers.`,
  );
}

function responsesOf(inputResponses: unknown): Record<string, unknown> | undefined {
  if (inputResponses === undefined) return undefined;
  if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses)) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'inputResponses must be an object that maps the key of each input request to the client’s answer.',
    );
  }
  return inputResponses as Record<string, unknown>;
}

/** Creates the round engine the kit runs modern-era tools, prompts and resource reads in. */
export function createInputRounds(options: InputRoundsOptions): InputRounds {
  const maxRounds = options.maxRounds ?? 8;
  const maxRecordedBytes = options.maxRecordedBytes ?? 64 * 1024;
  const codec = options.codec;

  return {
    async run(call, request, signal, handler) {
      const state: RoundState =
        request.requestState === undefined ? codec.initial(call) : await codec.open(request.requestState, call);
      const responses = responsesOf(request.inputResponses);
      // The tables of asks and answers are made by the first ask: most calls never ask (ADR 0011).
      let tables:
        | {
            dropped: Set<string>;
            recorded: Map<string, { question: string; answer: unknown }>;
            waiting: Map<string, string>;
            open: Map<string, { question: string; request: InputRequest }>;
          }
        | undefined;
      const tablesOfCall = () => {
        tables ??= {
          dropped: new Set(request.droppedInputResponseKeys ?? []),
          recorded: new Map(state.r.map(([key, question, answer]) => [key, { question, answer }])),
          waiting: new Map(state.p),
          open: new Map(),
        };
        return tables;
      };
      let asks = 0;
      // A failure the handler must not swallow: it fails the call whatever the handler does with it.
      let fatal: unknown;
      // How the round ended first: the handler settled, or an ask suspended it (one promise, not a race of three).
      type First<Value> =
        | { kind: 'complete'; value: Value }
        | { kind: 'error'; error: unknown }
        | { kind: 'suspended' };
      let end: ((first: First<unknown>) => void) | undefined;
      let suspending = false;

      // Made on first use: most handlers never read their signal, and a controller per call shows in the profile.
      let controller: AbortController | undefined;
      let suspendedWith: InputPending | undefined;
      const forwardAbort = () => controller?.abort(signal.reason);
      const roundSignal = () => {
        if (!controller) {
          controller = new AbortController();
          if (suspendedWith) controller.abort(suspendedWith);
          else if (signal.aborted) controller.abort(signal.reason);
          else signal.addEventListener('abort', forwardAbort, { once: true });
        }
        return controller.signal;
      };

      const fail = (error: unknown): Promise<never> => {
        fatal ??= error;
        return Promise.reject(error);
      };

      const ask = (ask: Ask): Promise<unknown> => {
        asks += 1;
        const key = ask.options?.key ?? `${ask.kind}-${asks}`;
        const question = digest(ask.request);
        const { dropped, recorded, waiting, open } = tablesOfCall();
        const prior = recorded.get(key);
        if (prior !== undefined) {
          return prior.question === question ? Promise.resolve(prior.answer) : fail(notDeterministic(call, key));
        }
        const expected = waiting.get(key);
        if (expected !== undefined && expected !== question) return fail(notDeterministic(call, key));
        if (open.has(key)) {
          return fail(
            new ProtocolError(
              ProtocolErrorCode.InternalError,
              `The ${call.method} handler of '${call.target}' asked twice under the key '${key}' in one round; give each ask its own key.`,
            ),
          );
        }
        if (dropped.has(key)) return fail(invalidAnswer(key, ask.kind, 'it is not an object'));
        const answer = responses?.[key];
        if (answer !== undefined) {
          const checked = ask.schema['~standard'].validate(answer);
          if (checked.issues) {
            return fail(invalidAnswer(key, ask.kind, checked.issues.map((issue) => issue.message).join('; ')));
          }
          recorded.set(key, { question, answer: checked.value });
          return Promise.resolve(checked.value);
        }
        if (!request.clientCapabilities?.[ask.capability]) {
          // The 2026-07-28 rule (SEP-2575): a request that needs a capability its _meta does not declare is refused
          // with -32021 (HTTP 400), whatever the handler does with the rejection. Check ctx.client.supports first
          // to do without.
          return fail(
            new MissingRequiredClientCapabilityError(
              { requiredCapabilities: { [ask.capability]: {} } },
              capabilitySentence[ask.kind],
            ),
          );
        }
        open.set(key, { question, request: ask.request });
        if (!suspending) {
          suspending = true;
          setImmediate(() => end?.({ kind: 'suspended' }));
        }
        // Never settles: the round ends here, and the retry replays the handler up to this ask with its answer.
        return new Promise(() => {});
      };

      const asker: InputAsker = {
        elicit: (params, askOptions) =>
          ask({
            kind: 'elicit',
            request: inputRequired.elicit({ mode: 'form', ...params }),
            schema: specTypeSchemas.ElicitResult,
            capability: 'elicitation',
            ...(askOptions ? { options: askOptions } : {}),
          }) as Promise<ElicitResult>,
        sample: (params, askOptions) =>
          ask({
            kind: 'sample',
            request: inputRequired.createMessage(params),
            schema: params.tools ? specTypeSchemas.CreateMessageResultWithTools : specTypeSchemas.CreateMessageResult,
            capability: 'sampling',
            ...(askOptions ? { options: askOptions } : {}),
          }) as Promise<CreateMessageResult>,
        roots: (askOptions) =>
          ask({
            kind: 'roots',
            request: inputRequired.listRoots(),
            schema: specTypeSchemas.ListRootsResult,
            capability: 'roots',
            ...(askOptions ? { options: askOptions } : {}),
          }) as Promise<ListRootsResult>,
      };

      try {
        const answered = handler(asker, roundSignal);
        if (!isThenable(answered)) {
          if (fatal !== undefined) throw fatal;
          return { kind: 'complete', value: answered };
        }
        const running = answered;
        const ended = new Promise<First<unknown>>((resolve) => {
          end = resolve;
        });
        running.then(
          (value) => end?.({ kind: 'complete', value }),
          (error: unknown) => end?.({ kind: 'error', error }),
        );
        const first = (await ended) as First<Awaited<ReturnType<typeof handler>>>;
        if (fatal !== undefined) throw fatal;
        if (first.kind === 'complete') return { kind: 'complete', value: first.value };
        if (first.kind === 'error') throw first.error;
        const { recorded, open } = tablesOfCall();

        suspendedWith = new InputPending();
        controller?.abort(suspendedWith);
        if (state.c + 1 > maxRounds) {
          throw new ToolError(
            `The call asked for input more than ${maxRounds} times, the limit for one call; ask for everything it needs in fewer rounds.`,
          );
        }
        const answers = [...recorded].map(([key, entry]) => [key, entry.question, entry.answer] as const);
        if (Buffer.byteLength(JSON.stringify(answers)) > maxRecordedBytes) {
          throw new ToolError(
            `The answers to this call's questions exceed ${maxRecordedBytes} bytes, the limit for one call; ask for less.`,
          );
        }
        const next: RoundState = {
          ...state,
          c: state.c + 1,
          r: answers.map(([key, question, answer]) => [key, question, answer]),
          p: [...open].map(([key, entry]) => [key, entry.question]),
        };
        const inputRequests = Object.fromEntries([...open].map(([key, entry]) => [key, entry.request]));
        return {
          kind: 'input_required',
          result: inputRequired({ inputRequests, requestState: await codec.seal(next) }),
        };
      } finally {
        if (controller) signal.removeEventListener('abort', forwardAbort);
      }
    },
  };
}
