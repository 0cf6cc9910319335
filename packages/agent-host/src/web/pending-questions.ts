import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, ApprovalRequest } from '../approvals/approval-handler.js';
import type { ApprovalPolicy } from '../approvals/approval-policy.js';
import type { ElicitationAnswer, ElicitationRequest, SamplingRequest } from '../connection/client-requests.js';
import type { EventStream } from './event-stream.js';
import type { PageAnswer, PageQuestion } from './protocol.js';

type NewQuestion = PageQuestion extends infer Each ? (Each extends PageQuestion ? Omit<Each, 'id'> : never) : never;

/** The answer given when a question is withdrawn (the run was stopped) or answered wrongly. */
const fallback: Record<PageQuestion['kind'], (id: string) => PageAnswer> = {
  approval: (id) => ({ id, kind: 'approval', answer: 'no' }),
  elicitation: (id) => ({ id, kind: 'elicitation', action: 'cancel' }),
  sampling: (id) => ({ id, kind: 'sampling', allow: false }),
};

const isFieldValue = (value: unknown) =>
  ['string', 'number', 'boolean'].includes(typeof value) ||
  (Array.isArray(value) && value.every((item) => typeof item === 'string'));

/**
 * The questions the host waits on the person for (approvals, forms, sampling), asked on every open page; the first
 * answer wins and closes the question on all of them.
 */
export class PendingQuestions {
  private readonly waiting = new Map<string, { kind: PageQuestion['kind']; resolve(answer: PageAnswer): void }>();

  constructor(private readonly stream: EventStream) {}

  /** Asks the pages and waits for an answer; an abort of `signal` withdraws the question with a refusal. */
  ask(question: NewQuestion, signal?: AbortSignal): Promise<PageAnswer> {
    const id = randomUUID();
    const kind = question.kind;
    return new Promise((resolve) => {
      const withdraw = () => this.close(id, fallback[kind](id), 'withdrawn');
      if (signal?.aborted) return resolve(fallback[kind](id));
      signal?.addEventListener('abort', withdraw, { once: true });
      this.waiting.set(id, {
        kind,
        resolve: (answer) => {
          signal?.removeEventListener('abort', withdraw);
          resolve(answer);
        },
      });
      this.stream.send({ type: 'question', question: { ...question, id } as PageQuestion });
    });
  }

  /** Takes a page's answer; false when no such question waits (answered elsewhere, withdrawn) or it does not fit. */
  answer(answer: PageAnswer): boolean {
    const entry = this.waiting.get(answer.id);
    if (!entry || entry.kind !== answer.kind) return false;
    if (answer.kind === 'elicitation' && answer.content && !Object.values(answer.content).every(isFieldValue)) {
      return false;
    }
    this.close(answer.id, answer, 'answered');
    return true;
  }

  /** Withdraws every open question (a stopped run): approvals are refused, forms cancelled, sampling declined. */
  withdrawAll(): void {
    for (const [id, entry] of [...this.waiting]) this.close(id, fallback[entry.kind](id), 'withdrawn');
  }

  private close(id: string, answer: PageAnswer, outcome: string): void {
    const entry = this.waiting.get(id);
    if (!entry) return;
    this.waiting.delete(id);
    this.stream.send({ type: 'question-closed', id, outcome });
    entry.resolve(answer);
  }

  /** The `ask` of `approvalHandler`: a call the policy leaves to the person. */
  readonly approve = async (request: ApprovalRequest & { policy: ApprovalPolicy }): Promise<ApprovalAnswer> => {
    const answer = await this.ask(
      {
        kind: 'approval',
        server: request.server,
        tool: request.tool,
        arguments: request.arguments,
        policy: request.policy,
        destructive: request.annotations?.readOnlyHint !== true && request.annotations?.destructiveHint !== false,
      },
      request.signal,
    );
    return answer.kind === 'approval' ? answer.answer : 'no';
  };

  /** The host's `elicit`: a server's form, filled in on the page. */
  readonly elicit = async (request: ElicitationRequest): Promise<ElicitationAnswer> => {
    const answer = await this.ask({
      kind: 'elicitation',
      server: request.server,
      message: request.message,
      schema: request.schema,
    });
    if (answer.kind !== 'elicitation') return { action: 'cancel' };
    if (answer.action === 'accept') return { action: 'accept', content: answer.content ?? {} };
    return { action: answer.action };
  };

  /** The `confirm` of `samplingHandler` under the `ask` policy: whether a server may use the model once. */
  readonly confirmSampling = async (request: SamplingRequest): Promise<boolean> => {
    const answer = await this.ask({
      kind: 'sampling',
      server: request.server,
      messages: request.messages,
      ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
      maxTokens: request.maxTokens,
    });
    return answer.kind === 'sampling' && answer.allow;
  };
}
