import type { CreateMessageRequestParams } from '@modelcontextprotocol/server';
import type { SampleRequest } from './context.js';

/** The SDK's sampling parameters for a kit sample request (a bare prompt becomes one user message, 1000 tokens at most). */
export function samplingParams(request: SampleRequest): CreateMessageRequestParams {
  if (!('prompt' in request)) return request as CreateMessageRequestParams;
  return {
    messages: [{ role: 'user', content: { type: 'text', text: request.prompt } }],
    maxTokens: request.maxTokens ?? 1000,
    ...(request.systemPrompt ? { systemPrompt: request.systemPrompt } : {}),
  };
}
