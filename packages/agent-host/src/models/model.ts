import type { Provider } from '../registry/translate-schema.js';
import type { Message, ToolCall, Usage } from './messages.js';

/** A tool offered to the model, with the schema as the server listed it (each provider translates it). */
export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: unknown;
}

/** One request to a model. */
export interface ModelRequest {
  /** Instructions ahead of the conversation. */
  system?: string;
  messages: Message[];
  tools: ToolSpec[];
  /** `none` asks for a text answer even though tools are listed (used when the step limit is reached). */
  toolChoice?: 'auto' | 'none';
  /** Most tokens to generate (default 4096). */
  maxTokens?: number;
}

/** The model's answer to one request, assembled from the stream. */
export interface ModelResponse {
  text: string;
  toolCalls: ToolCall[];
  /** The provider's reason for stopping, e.g. `stop`, `tool_calls`, `end_turn`, `tool_use`. */
  stopReason: string;
  usage: Usage;
}

/** Options of one completion. */
export interface CompleteOptions {
  signal?: AbortSignal;
  /** Called with each piece of text as it streams in. */
  onTextDelta?(text: string): void;
}

/** A chat model behind one provider's HTTP API. */
export interface Model {
  /** The wire format it speaks, which decides how tool schemas are translated. */
  readonly provider: Provider;
  /** The model's name as sent to the provider. */
  readonly name: string;
  /** Sends the conversation and returns the assembled answer; throws a HostError when the provider refuses. */
  complete(request: ModelRequest, options?: CompleteOptions): Promise<ModelResponse>;
}

/** Default most tokens to generate per request. */
export const defaultMaxTokens = 4096;
