import type { SamplingRequest } from '../connection/client-requests.js';
import { HostError } from '../errors.js';
import type { Model } from '../models/model.js';

/** Whether servers may use the host's model: always, after asking the user, or never. */
export type SamplingPolicy = 'allow' | 'ask' | 'deny';

/** How sampling requests are answered. */
export interface SamplingOptions {
  policy: SamplingPolicy;
  model: Model;
  /** Asks the user whether a server may sample; absent (not interactive) means no under `ask`. */
  confirm?(request: SamplingRequest): Promise<boolean>;
  /** Cap on the tokens a server may ask for (default 2048). */
  maxTokens?: number;
}

/** Answers servers' sampling requests with the host's own model, under a policy. */
export function samplingHandler(
  options: SamplingOptions,
): (request: SamplingRequest) => Promise<{ text: string; model: string }> {
  return async (request) => {
    if (options.policy === 'deny') {
      throw new HostError(
        'USAGE',
        `The host declined the sampling request of server "${request.server}" (--sampling deny).`,
      );
    }
    if (options.policy === 'ask') {
      if (!options.confirm) {
        throw new HostError(
          'USAGE',
          `The host declined the sampling request of server "${request.server}" because no one can be asked here ` +
            '(--sampling allow lets servers use the model).',
        );
      }
      if (!(await options.confirm(request))) {
        throw new HostError('USAGE', `The user declined the sampling request of server "${request.server}".`);
      }
    }
    const response = await options.model.complete({
      ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
      messages: request.messages.map((message) =>
        message.role === 'user'
          ? { role: 'user', content: [{ type: 'text', text: message.text }] }
          : { role: 'assistant', text: message.text, toolCalls: [] },
      ),
      tools: [],
      maxTokens: Math.min(request.maxTokens, options.maxTokens ?? 2048),
    });
    return { text: response.text, model: options.model.name };
  };
}
