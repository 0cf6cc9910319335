import type { ApprovalDecision, ApproveToolCall } from '../approvals/approval-handler.js';
import type { CallOptions } from '../connection/tool-call.js';
import type { CallToolResult } from '../connection/types.js';
import { errorMessage } from '../errors.js';
import type { ContentPart, Message, ToolCall, ToolResult, Usage } from '../models/messages.js';
import { partsText } from '../models/messages.js';
import type { Model, ModelRequest, ToolSpec } from '../models/model.js';
import type { RegisteredTool, ToolRegistry } from '../registry/tool-registry.js';
import { type ToolSearchMode, ToolSelection } from '../tool-search/tool-selection.js';
import type { StopReason } from './agent-event-shapes.js';
import type { AgentEvent, AgentListener } from './agent-events.js';
import { pagingArguments } from './paging-arguments.js';
import { boundResultParts, defaultMaxResultTokens, type ResultCut } from './result-budget.js';
import { toolResultParts } from './tool-content.js';

/** The part of a host the loop uses: its registry and a way to call tools. */
export interface ToolHost {
  readonly registry: ToolRegistry;
  callTool(modelName: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
}

/** How an agent runs. */
export interface AgentOptions {
  host: ToolHost;
  model: Model;
  /** Instructions ahead of the conversation. */
  system?: string;
  /** Most model turns that may call tools in one run (default 10); then the model is asked for a final answer. */
  maxSteps?: number;
  /** Time limit of each tool call, overriding the servers' configured ones. */
  toolTimeoutMs?: number;
  /** Most tokens per model answer. */
  maxTokens?: number;
  /**
   * Most tokens (estimated from UTF-8 bytes, images by pixel size) of one tool result passed to the model (default
   * 25,000); a larger result is cut with a note. The whole result is kept in the `tool-call-end` event.
   */
  maxResultTokens?: number;
  /** When the model gets `search_tools` instead of every schema: `always`, `never`, or `auto` (the default). */
  toolSearch?: ToolSearchMode;
  /** Under `auto`, tool search is on above this many tools (default 40). */
  toolSearchThreshold?: number;
  /**
   * Decides whether each tool call may run (e.g. `approvalHandler`); a refusal is the call's result. Without it,
   * every call runs.
   */
  approve?: ApproveToolCall;
}

/** The outcome of one run. */
export interface RunResult {
  /** The final answer ('' when cancelled). */
  answer: string;
  stoppedBy: StopReason;
  /** Model turns taken. */
  steps: number;
  usage: Usage;
  /** The whole conversation so far, this run included. */
  messages: Message[];
}

/** Options of one run. */
export interface RunOptions {
  /** Aborting cancels the model request and the tool calls in flight (servers get `notifications/cancelled`). */
  signal?: AbortSignal;
}

/** Default most tool-calling turns per run. */
export const defaultMaxSteps = 10;

const stepLimitNote = (limit: number) =>
  `Not run: the limit of ${limit} tool steps was reached. Answer now with what you have, without calling tools.`;

/**
 * The agent loop with conversation state. Each run sends the conversation and the registry's tools to the model; tool
 * calls of one turn run concurrently, and every call id gets exactly one result before the next model request.
 */
export class Agent {
  /** The conversation, kept across runs (a chat). */
  readonly messages: Message[] = [];
  /** The tools this conversation offers the model: all of them, or `search_tools` and those loaded so far. */
  readonly tools: ToolSelection;
  private readonly listeners = new Set<AgentListener>();

  constructor(readonly options: AgentOptions) {
    this.tools = new ToolSelection(options.host.registry, {
      ...(options.toolSearch ? { mode: options.toolSearch } : {}),
      ...(options.toolSearchThreshold !== undefined ? { threshold: options.toolSearchThreshold } : {}),
    });
  }

  /** Receives every event; returns a function that unsubscribes. */
  subscribe(listener: AgentListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: AgentEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A broken UI must not break the run.
      }
    }
  }

  /** The tools offered to the model right now (the registry follows servers' list changes). */
  toolSpecs(): ToolSpec[] {
    return this.tools.specs();
  }

  /** Asks a question (or continues the chat) and runs the loop until the model answers in text. */
  async run(input: string | ContentPart[], runOptions: RunOptions = {}): Promise<RunResult> {
    const { model, system, maxTokens } = this.options;
    const maxSteps = this.options.maxSteps ?? defaultMaxSteps;
    const signal = runOptions.signal;
    const started = performance.now();
    const usage: Usage = { inputTokens: 0, outputTokens: 0 };
    this.messages.push({ role: 'user', content: typeof input === 'string' ? [{ type: 'text', text: input }] : input });

    const finish = (text: string, steps: number, stoppedBy: StopReason): RunResult => {
      const durationMs = performance.now() - started;
      this.emit({ type: 'answer', text, steps, usage: { ...usage }, stoppedBy, durationMs });
      return { answer: text, stoppedBy, steps, usage: { ...usage }, messages: this.messages };
    };

    const ask = async (step: number, toolChoice: 'auto' | 'none') => {
      const requestStarted = performance.now();
      const request: ModelRequest = {
        messages: this.messages,
        tools: this.toolSpecs(),
        toolChoice,
        ...(system ? { system } : {}),
        ...(maxTokens ? { maxTokens } : {}),
      };
      const response = await model.complete(request, {
        ...(signal ? { signal } : {}),
        onTextDelta: (text) => this.emit({ type: 'text-delta', step, text }),
      });
      usage.inputTokens += response.usage.inputTokens;
      usage.outputTokens += response.usage.outputTokens;
      this.messages.push({ role: 'assistant', text: response.text, toolCalls: response.toolCalls });
      this.emit({
        type: 'model-response',
        step,
        text: response.text,
        toolCalls: response.toolCalls,
        usage: response.usage,
        durationMs: performance.now() - requestStarted,
      });
      return response;
    };

    for (let step = 1; step <= maxSteps; step++) {
      if (signal?.aborted) return finish('', step - 1, 'cancelled');
      const stepStarted = performance.now();
      const stepUsage = { ...usage };
      this.emit({ type: 'step-start', step });
      let response: Awaited<ReturnType<typeof ask>>;
      try {
        response = await ask(step, 'auto');
      } catch (error) {
        // Cancelling during the model request ends the run like cancelling during the tool calls.
        if (signal?.aborted) return finish('', step - 1, 'cancelled');
        throw error;
      }
      const endStep = () =>
        this.emit({
          type: 'step-end',
          step,
          durationMs: performance.now() - stepStarted,
          usage: {
            inputTokens: usage.inputTokens - stepUsage.inputTokens,
            outputTokens: usage.outputTokens - stepUsage.outputTokens,
          },
        });
      if (response.toolCalls.length === 0) {
        endStep();
        return finish(response.text, step, 'answer');
      }
      const results =
        step < maxSteps
          ? await Promise.all(response.toolCalls.map((call) => this.runCall(step, call, signal)))
          : response.toolCalls.map((call) => synthesized(call, stepLimitNote(maxSteps)));
      this.messages.push({ role: 'tool', results });
      endStep();
      if (signal?.aborted) return finish('', step, 'cancelled');
      if (step === maxSteps) {
        // One more request, for an answer with what the model has; tools stay listed because Anthropic requires
        // them when the conversation holds tool calls, but the model is told not to use them.
        let final: Awaited<ReturnType<typeof ask>>;
        try {
          final = await ask(step + 1, 'none');
        } catch (error) {
          if (signal?.aborted) return finish('', step, 'cancelled');
          throw error;
        }
        if (final.toolCalls.length > 0) {
          this.messages.push({
            role: 'tool',
            results: final.toolCalls.map((call) => synthesized(call, stepLimitNote(maxSteps))),
          });
        }
        return finish(final.text, step + 1, 'step-limit');
      }
    }
    return finish('', maxSteps, 'step-limit');
  }

  private async runCall(step: number, call: ToolCall, signal: AbortSignal | undefined): Promise<ToolResult> {
    if (this.tools.isSearchCall(call.name)) return this.runSearch(step, call);
    const entry = this.options.host.registry.resolve(call.name);
    const where = entry ? { server: entry.server, tool: entry.tool } : {};
    this.emit({ type: 'tool-call-start', step, callId: call.id, name: call.name, ...where, arguments: call.arguments });
    const started = performance.now();
    let result: ToolResult;
    let whole: CallToolResult | undefined;
    let cut: ResultCut | undefined;
    const approval =
      entry && call.invalidArguments === undefined ? await this.approval(entry, call, signal) : undefined;
    if (entry) this.tools.load(call.name);
    if (call.invalidArguments !== undefined) {
      result = synthesized(
        call,
        `The arguments were not a JSON object: ${call.invalidArguments.slice(0, 500)}. Call the tool again with a JSON object.`,
      );
    } else if (approval && signal?.aborted) {
      // Cancelled while a person was being asked: the call is not started.
      result = synthesized(call, 'Not run: the run was cancelled.');
    } else if (approval && !approval.allowed) {
      result = synthesized(call, approval.message);
    } else {
      whole = await this.options.host.callTool(call.name, call.arguments, {
        ...(signal ? { signal } : {}),
        ...(this.options.toolTimeoutMs ? { timeoutMs: this.options.toolTimeoutMs } : {}),
        onProgress: (progress) =>
          this.emit({ type: 'tool-call-progress', step, callId: call.id, name: call.name, ...where, ...progress }),
      });
      const bounded = boundResultParts(toolResultParts(whole), {
        maxTokens: this.options.maxResultTokens ?? defaultMaxResultTokens,
        toolName: call.name,
        pagingArguments: pagingArguments(entry?.definition.inputSchema),
      });
      cut = bounded.cut;
      result = { callId: call.id, name: call.name, content: bounded.parts, isError: whole.isError === true };
    }
    this.emit({
      type: 'tool-call-end',
      step,
      callId: call.id,
      name: call.name,
      ...where,
      durationMs: performance.now() - started,
      isError: result.isError,
      content: result.content,
      text: partsText(result.content),
      ...(whole ? { result: whole } : {}),
      ...(cut ? { cut } : {}),
      ...(approval && !approval.allowed ? { refused: true } : {}),
    });
    return result;
  }

  /** Asks the approval callback about a call; a callback that fails refuses it, so the call still gets a result. */
  private async approval(
    entry: RegisteredTool,
    call: ToolCall,
    signal: AbortSignal | undefined,
  ): Promise<ApprovalDecision | undefined> {
    const approve = this.options.approve;
    if (!approve) return undefined;
    try {
      return await approve({
        server: entry.server,
        tool: entry.tool,
        modelName: call.name,
        arguments: call.arguments,
        annotations: entry.definition.annotations,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      return { allowed: false, message: `Not run: the approval check failed (${errorMessage(error)}).` };
    }
  }

  /** Answers a `search_tools` call in the host: the tools found are offered from the next request on. */
  private runSearch(step: number, call: ToolCall): ToolResult {
    this.emit({ type: 'tool-call-start', step, callId: call.id, name: call.name, arguments: call.arguments });
    const started = performance.now();
    const found = this.tools.search(call.arguments);
    const content: ContentPart[] = [{ type: 'text', text: found.text }];
    this.emit({
      type: 'tool-call-end',
      step,
      callId: call.id,
      name: call.name,
      durationMs: performance.now() - started,
      isError: found.isError,
      content,
      text: found.text,
    });
    return { callId: call.id, name: call.name, content, isError: found.isError };
  }
}

function synthesized(call: ToolCall, message: string): ToolResult {
  return { callId: call.id, name: call.name, content: [{ type: 'text', text: message }], isError: true };
}

/** Creates an agent over a host and a model. */
export function createAgent(options: AgentOptions): Agent {
  return new Agent(options);
}
