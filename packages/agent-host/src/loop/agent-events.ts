import type { CallToolResult } from '../connection/types.js';
import type { ContentPart, ToolCall, Usage } from '../models/messages.js';
import type { ResultCut } from './result-budget.js';

/** Why a run ended. */
export type StopReason = 'answer' | 'step-limit' | 'cancelled';

/** What the loop reports as it goes, for a UI or a trace. */
export type AgentEvent =
  | { type: 'step-start'; step: number }
  /** A piece of the model's text as it streams in. */
  | { type: 'text-delta'; step: number; text: string }
  | {
      type: 'model-response';
      step: number;
      text: string;
      toolCalls: ToolCall[];
      usage: Usage;
      durationMs: number;
    }
  | {
      type: 'tool-call-start';
      step: number;
      callId: string;
      /** The model-facing name. */
      name: string;
      /** The server and its own tool name, when the name is known. */
      server?: string;
      tool?: string;
      arguments: Record<string, unknown>;
    }
  | {
      type: 'tool-call-end';
      step: number;
      callId: string;
      name: string;
      server?: string;
      tool?: string;
      durationMs: number;
      isError: boolean;
      /** What the model got: the result's parts, cut to the result budget, or the refusal or error. */
      content: ContentPart[];
      /** The text of the result, for a trace. */
      text: string;
      /** The server's whole result, structured content included and uncut (absent when no call was made). */
      result?: CallToolResult;
      /** What the result budget cut, when it did. */
      cut?: ResultCut;
      /** True when the approval callback refused the call, so it never reached the server. */
      refused?: boolean;
    }
  | {
      /** A progress notification of a call in flight (each one also resets the call's timeout). */
      type: 'tool-call-progress';
      step: number;
      callId: string;
      name: string;
      server?: string;
      tool?: string;
      progress: number;
      total?: number;
      message?: string;
    }
  | { type: 'step-end'; step: number; durationMs: number; usage: Usage }
  | { type: 'answer'; text: string; steps: number; usage: Usage; stoppedBy: StopReason; durationMs: number };

/** Receives the loop's events. */
export type AgentListener = (event: AgentEvent) => void;
