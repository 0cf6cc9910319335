import type { ContentPart, ToolCall, Usage } from '../models/messages.js';

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
      content: ContentPart[];
      /** The text of the result, for a trace. */
      text: string;
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
