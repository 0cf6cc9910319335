// The loop's events, or the part of them, that carry plain data only: no SDK or Node types and no imports, so the
// web page's own build (browser types only) can `import type` them too. `agent-events.ts` builds the loop's events
// from these; `web/protocol.ts` builds the page's.

/** Why a run ended. */
export type StopReason = 'answer' | 'step-limit' | 'cancelled';

/** A step (one model request and the tool calls it asked for) began. */
export interface StepStartEvent {
  type: 'step-start';
  step: number;
}

/** A piece of the model's text as it streams in. */
export interface TextDeltaEvent {
  type: 'text-delta';
  step: number;
  text: string;
}

/** A tool call the model asked for is about to run. */
export interface ToolCallStartEvent {
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

/** A progress notification of a call in flight (each one also resets the call's timeout). */
export interface ToolCallProgressEvent {
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

/** What every tool-call-end event says, whoever reads it. */
export interface ToolCallEndFields {
  type: 'tool-call-end';
  step: number;
  callId: string;
  durationMs: number;
  isError: boolean;
}

/** A step ended (the loop adds the tokens it used). */
export interface StepEndFields {
  type: 'step-end';
  step: number;
  durationMs: number;
}

/** The run's answer (the loop adds its step count and the tokens it used). */
export interface AnswerFields {
  type: 'answer';
  text: string;
  stoppedBy: StopReason;
  durationMs: number;
}
