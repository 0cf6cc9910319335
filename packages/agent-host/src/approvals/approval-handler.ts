import {
  type ApprovalPolicy,
  type ApprovalRules,
  approvalOutcome,
  resolvePolicy,
  type ToolHints,
} from './approval-policy.js';

/** A tool call waiting for approval, as the loop describes it. */
export interface ApprovalRequest {
  /** The config name of the server that has the tool. */
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** The name the model called it by. */
  modelName: string;
  arguments: Record<string, unknown>;
  /** The tool's annotations as its server listed them (untrusted). */
  annotations: ToolHints | undefined;
  /** The run's signal: it aborts when the run is cancelled, so that a UI can withdraw its question. */
  signal?: AbortSignal;
}

/** Whether a call may run; a refusal carries the sentence the model reads as the call's result. */
export type ApprovalDecision = { allowed: true } | { allowed: false; message: string };

/** Decides whether a tool call may run; the agent calls it before every tool call when given. */
export type ApproveToolCall = (request: ApprovalRequest) => Promise<ApprovalDecision>;

/** A person's answer: run this call, refuse it, or run every call of this tool from now on (this session). */
export type ApprovalAnswer = 'yes' | 'no' | 'always';

/** How `approvalHandler` decides. */
export interface ApprovalHandlerOptions {
  /** Policies, the first layer that names a tool winning (e.g. the command line's, then the config's). */
  rules?: ApprovalRules | readonly ApprovalRules[];
  /** Asks a person about a call the policy does not settle; absent means no one can be asked, so it is refused. */
  ask?(request: ApprovalRequest & { policy: ApprovalPolicy }): Promise<ApprovalAnswer>;
  /** A sentence added to a refusal, telling how the user could allow the call (the command line names its flag). */
  howToAllow?(request: ApprovalRequest): string;
}

const key = (request: ApprovalRequest) => `${request.server}\u0000${request.tool}`;

/**
 * The approval callback of the command line, for any UI too: applies the policies, asks `ask` one call at a time
 * about the rest, and remembers "always" per tool for as long as the handler lives (a session).
 */
export function approvalHandler(options: ApprovalHandlerOptions = {}): ApproveToolCall {
  const layers: readonly ApprovalRules[] = Array.isArray(options.rules)
    ? options.rules
    : options.rules
      ? [options.rules as ApprovalRules]
      : [];
  const always = new Set<string>();
  // Calls of one turn run at once, but a person answers one question at a time.
  let queue: Promise<unknown> = Promise.resolve();
  const refusal = (request: ApprovalRequest, reason: string, advice: string): ApprovalDecision => {
    const hint = options.howToAllow?.(request);
    return { allowed: false, message: `Not run: ${reason} ${advice}${hint ? ` ${hint}` : ''}` };
  };
  const noRetry = 'Do not call it again; tell the user what you wanted it to do.';
  return async (request) => {
    const policy = resolvePolicy(layers, request.server, request.tool);
    const outcome = approvalOutcome(policy, request.annotations);
    const name = `${request.server}/${request.tool}`;
    if (outcome === 'run' || always.has(key(request))) return { allowed: true };
    const ask = options.ask;
    if (outcome === 'refuse' || !ask) {
      const why =
        outcome === 'refuse'
          ? `${name} is not marked read-only, and the approval policy "${policy}" runs only read-only tools.`
          : `${name} is not marked read-only, so it needs the user's approval, and no one can be asked here.`;
      return refusal(request, why, noRetry);
    }
    const answer = queue.then(async () => {
      if (always.has(key(request))) return 'yes' as const;
      // A call queued behind another question of a run that was cancelled meanwhile is not asked about.
      if (request.signal?.aborted) return 'no' as const;
      return ask({ ...request, policy });
    });
    queue = answer.catch(() => undefined);
    let given: ApprovalAnswer;
    try {
      given = await answer;
    } catch {
      given = 'no';
    }
    if (given === 'always') always.add(key(request));
    if (given === 'no')
      return refusal(request, `the user declined this call of ${name}.`, 'Ask the user before trying it again.');
    return { allowed: true };
  };
}
