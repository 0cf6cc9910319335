import type { CallToolResult } from '../connection/types.js';
import type { ContentPart, ToolCall, Usage } from '../models/messages.js';
import type {
  AnswerFields,
  StepEndFields,
  StepStartEvent,
  TextDeltaEvent,
  ToolCallEndFields,
  ToolCallProgressEvent,
  ToolCallStartEvent,
} from './agent-event-shapes.js';
import type { ResultCut } from './result-budget.js';

/** What the loop reports as it goes, for a UI or a trace. */
export type AgentEvent =
  | StepStartEvent
  | TextDeltaEvent
  | {
      type: 'model-response';
      step: number;
      text: string;
      toolCalls: ToolCall[];
      usage: Usage;
      durationMs: number;
    }
  | ToolCallStartEvent
  | (ToolCallEndFields & {
      name: string;
      server?: string;
      tool?: string;
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
    })
  | ToolCallProgressEvent
  | (StepEndFields & { usage: Usage })
  | (AnswerFields & { steps: number; usage: Usage });

/** Receives the loop's events. */
export type AgentListener = (event: AgentEvent) => void;
