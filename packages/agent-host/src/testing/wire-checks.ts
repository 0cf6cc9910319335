import type { ScriptedRequest } from './scripted-model.js';

const providerSafeName = /^[A-Za-z0-9_-]{1,64}$/;

// biome-ignore lint/suspicious/noExplicitAny: provider JSON bodies, checked field by field.
type Json = any;

/** The tool names a request lists, after checking each tool's shape in its provider's format. */
function listedTools(format: ScriptedRequest['format'], tools: Json[] | undefined, problems: string[]): Set<string> {
  const names = new Set<string>();
  for (const [index, tool] of (tools ?? []).entries()) {
    const name = format === 'openai' ? tool?.function?.name : tool?.name;
    const description = format === 'openai' ? tool?.function?.description : tool?.description;
    const schema = format === 'openai' ? tool?.function?.parameters : tool?.input_schema;
    if (format === 'openai' && tool?.type !== 'function') problems.push(`tools.${index}: type is not "function"`);
    if (typeof name !== 'string' || !providerSafeName.test(name)) problems.push(`tools.${index}: bad name ${name}`);
    if (typeof description !== 'string') problems.push(`tools.${index}: no description`);
    if (schema?.type !== 'object' || typeof schema.properties !== 'object') {
      problems.push(`tools.${index}: the schema is not an object with properties`);
    }
    if (names.has(name)) problems.push(`tools.${index}: ${name} is listed twice`);
    names.add(name);
  }
  return names;
}

/** Which checks `wireProblems` makes beyond the provider's own rules. */
export interface WireCheckOptions {
  /**
   * Also require every tool the history calls to be listed in the request (the host's tool search keeps them so;
   * an unknown tool the model made up is not listed, so tests of that case leave this off).
   */
  calledToolsListed?: boolean;
}

function openAIProblems(body: Json, problems: string[], options: WireCheckOptions): void {
  const tools = listedTools('openai', body.tools, problems);
  const messages: Json[] = body.messages ?? [];
  messages.forEach((message, index) => {
    if (message.role !== 'assistant' || !message.tool_calls) return;
    const answered = new Set<string>();
    for (let next = index + 1; messages[next]?.role === 'tool'; next++) answered.add(messages[next].tool_call_id);
    for (const call of message.tool_calls) {
      if (!answered.has(call.id)) problems.push(`messages.${index}: call ${call.id} has no tool message after it`);
      if (options.calledToolsListed && !tools.has(call.function.name)) {
        problems.push(`messages.${index}: ${call.function.name} is called in the history but not listed`);
      }
      if (typeof call.function.arguments !== 'string') problems.push(`messages.${index}: arguments are not a string`);
    }
  });
}

function anthropicProblems(body: Json, problems: string[], options: WireCheckOptions): void {
  const tools = listedTools('anthropic', body.tools, problems);
  if (typeof body.max_tokens !== 'number') problems.push('max_tokens is missing');
  const messages: Json[] = body.messages ?? [];
  if (messages.length > 0 && messages[0]?.role !== 'user') problems.push('the first message is not the user');
  messages.forEach((message, index) => {
    if (index > 0 && messages[index - 1].role === message.role) problems.push(`messages.${index}: same role twice`);
    if (!Array.isArray(message.content) || message.content.length === 0) problems.push(`messages.${index}: empty`);
    if (message.role !== 'assistant') return;
    const next = messages[index + 1]?.content;
    const answered = new Set(
      (Array.isArray(next) ? next : [])
        .filter((block: Json) => block.type === 'tool_result')
        .map((block: Json) => block.tool_use_id),
    );
    const blocks: Json[] = Array.isArray(message.content) ? message.content : [];
    for (const block of blocks.filter((each) => each.type === 'tool_use')) {
      if (!answered.has(block.id)) problems.push(`messages.${index}: tool_use ${block.id} has no tool_result next`);
      if (options.calledToolsListed && !tools.has(block.name)) {
        problems.push(`messages.${index}: ${block.name} is used in the history but not listed`);
      }
    }
  });
}

/**
 * What is wrong with a request in its provider's wire format: tool shapes, names and duplicates, every tool call
 * answered right after it, roles alternating and no empty message (Anthropic). Empty when it is valid. The scripted
 * model refuses a request with problems as the provider would, with a 400 that lists them.
 */
export function wireProblems(request: ScriptedRequest, options: WireCheckOptions = {}): string[] {
  const problems: string[] = [];
  if (typeof request.body?.model !== 'string') problems.push('no model');
  if (!Array.isArray(request.body?.messages)) problems.push('no messages');
  else if (request.format === 'openai') openAIProblems(request.body, problems, options);
  else anthropicProblems(request.body, problems, options);
  return problems;
}
