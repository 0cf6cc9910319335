import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAnthropicModel } from '../models/anthropic-model.js';
import type { Model } from '../models/model.js';
import { createOpenAIModel } from '../models/openai-model.js';
import { parseScript, type Script, type ScriptStep } from './script.js';
import { anthropicStream, errorBody, openAIStream, type PlannedReply } from './scripted-wire.js';
import { wireProblems } from './wire-checks.js';

/** A request the scripted model received, for tests to inspect. */
export interface ScriptedRequest {
  format: 'openai' | 'anthropic';
  // biome-ignore lint/suspicious/noExplicitAny: the provider's JSON body, inspected by tests as they like.
  body: any;
}

/** A running scripted model: an HTTP server on loopback speaking both providers' wire formats. */
export interface ScriptedModelServer {
  /** The server's origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  /** Base URL for an OpenAI-compatible client (`{url}/v1`). */
  openAIBaseUrl: string;
  /** Base URL for an Anthropic client (`{url}`). */
  anthropicBaseUrl: string;
  /** Every request received, in order. */
  readonly requests: ScriptedRequest[];
  /** Steps not yet played. */
  readonly remaining: number;
  /** A real provider client pointed at this server (default: the script's provider, else `openai`). */
  model(provider?: 'openai' | 'anthropic'): Model;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Where the scripted model listens. */
export interface ScriptedModelOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** First retry delay given to the clients `model()` builds (default 500 ms). */
  initialRetryDelayMs?: number;
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

interface WireBlock {
  type?: string;
  text?: string;
  content?: WireBlock[] | string;
}

interface WireMessage {
  role?: string;
  content?: WireBlock[] | string;
}

/** The texts of the tool results in the latest turn of a request, in either format. */
function toolResultTexts(format: 'openai' | 'anthropic', body: unknown): string[] {
  const messages = ((body as { messages?: unknown })?.messages ?? []) as WireMessage[];
  if (!Array.isArray(messages)) return [];
  if (format === 'openai') {
    const texts: string[] = [];
    for (let index = messages.length - 1; index >= 0 && messages[index]?.role !== 'assistant'; index--) {
      if (messages[index]?.role === 'tool') texts.unshift(String(messages[index]?.content));
    }
    return texts;
  }
  const last = messages.at(-1)?.content;
  const blocks = Array.isArray(last) ? last : [];
  return blocks
    .filter((block) => block.type === 'tool_result')
    .map((block) =>
      (Array.isArray(block.content) ? block.content : [])
        .filter((part) => part.type === 'text')
        .map((part) => part.text)
        .join('\n'),
    );
}

/** The text of the latest user message that is not only tool results, in either format. */
function lastUserText(format: 'openai' | 'anthropic', body: unknown): string {
  const messages = ((body as { messages?: unknown })?.messages ?? []) as WireMessage[];
  if (!Array.isArray(messages)) return '';
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    const texts = (message.content ?? []).filter((block) => block.type === 'text').map((block) => block.text ?? '');
    if (texts.length > 0) return texts.join('\n');
    if (format === 'openai') return '';
  }
  return '';
}

function plan(
  step: Exclude<ScriptStep, { error: unknown }>,
  number: number,
  format: 'openai' | 'anthropic',
  body: unknown,
): PlannedReply {
  const calls = 'toolCalls' in step ? step.toolCalls : [];
  const text = (step.text ?? '')
    .replace('{{tool_results}}', () => toolResultTexts(format, body).join('\n'))
    .replace('{{user_message}}', () => lastUserText(format, body));
  const prefix = format === 'openai' ? 'call' : 'toolu';
  return {
    text,
    toolCalls: calls.map((call, index) => ({
      id: call.id ?? `${prefix}_${number}_${index}`,
      name: call.name,
      arguments: call.arguments ?? {},
    })),
    inputTokens: Math.ceil(JSON.stringify(body).length / 4),
    outputTokens: Math.ceil((text.length + JSON.stringify(calls).length) / 4),
  };
}

/**
 * Starts a model that plays a fixed script over HTTP on loopback, in the real wire formats of OpenAI Chat Completions
 * (`POST /v1/chat/completions`) and Anthropic Messages (`POST /v1/messages`), streamed. Each request takes the next
 * step, so the real provider clients are what runs in tests and in the offline demo.
 */
export async function startScriptedModel(
  script: Script | ScriptStep[],
  options: ScriptedModelOptions = {},
): Promise<ScriptedModelServer> {
  const { steps, provider } = parseScript(script);
  const requests: ScriptedRequest[] = [];
  let next = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    const format = path === '/v1/chat/completions' ? 'openai' : path === '/v1/messages' ? 'anthropic' : undefined;
    if (request.method !== 'POST' || !format) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    let body: unknown;
    try {
      body = await readJson(request);
    } catch {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(errorBody(format, { status: 400, message: 'The request body is not JSON.' }));
      return;
    }
    requests.push({ format, body });
    // A real provider refuses a malformed request; so does this one, so that every test checks the wire format.
    const problems = wireProblems({ format, body });
    if (problems.length > 0) {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(errorBody(format, { status: 400, message: `Invalid request: ${problems.join('; ')}.` }));
      return;
    }
    const step = steps[next];
    if (!step) {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        errorBody(format, {
          status: 400,
          message: `The scripted model has no step left (the script has ${steps.length}).`,
        }),
      );
      return;
    }
    next += 1;
    if ('error' in step) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (step.error.retryAfterSeconds !== undefined) headers['retry-after'] = String(step.error.retryAfterSeconds);
      response.writeHead(step.error.status, headers).end(errorBody(format, step.error));
      return;
    }
    if (step.delayMs) await sleep(step.delayMs);
    const model = String((body as { model?: unknown }).model ?? 'scripted');
    const reply = plan(step, next, format, body);
    const events = format === 'openai' ? openAIStream(reply, model) : anthropicStream(reply, model);
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of events) response.write(event);
    response.end();
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    return closing;
  };
  const retry = options.initialRetryDelayMs !== undefined ? { initialRetryDelayMs: options.initialRetryDelayMs } : {};
  return {
    url,
    openAIBaseUrl: `${url}/v1`,
    anthropicBaseUrl: url,
    requests,
    get remaining() {
      return steps.length - next;
    },
    model(chosen = provider ?? 'openai') {
      return chosen === 'openai'
        ? createOpenAIModel({ model: 'scripted', baseUrl: `${url}/v1`, apiKey: 'scripted', ...retry })
        : createAnthropicModel({ model: 'scripted', baseUrl: url, apiKey: 'scripted', ...retry });
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
