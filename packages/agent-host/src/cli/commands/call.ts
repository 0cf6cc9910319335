import type { ToolProgress } from '../../connection/tool-call.js';
import type { CallToolResult } from '../../connection/types.js';
import { HostError } from '../../errors.js';
import type { ParsedCommand } from '../arguments.js';
import { openCommandContext } from '../command-context.js';
import { writeError, writeOut } from '../output.js';
import { StatusLine } from '../status-line.js';

/** The result for a terminal: text as it is, other blocks described in one line each. */
export function describeResult(result: CallToolResult): string {
  const lines = (result.content ?? []).map((block) => {
    if (block.type === 'text') return block.text;
    if (block.type === 'image' || block.type === 'audio') {
      return `[${block.type} ${block.mimeType}, ${Math.round((block.data.length * 3) / 4)} bytes]`;
    }
    if (block.type === 'resource_link') return `[resource ${block.uri}]`;
    if (block.type === 'resource')
      return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    return `[${(block as { type: string }).type}]`;
  });
  if (lines.length === 0 && result.structuredContent) lines.push(JSON.stringify(result.structuredContent, null, 2));
  return lines.join('\n');
}

/** `call SERVER TOOL '{json}'`: calls one tool without a model; exit code 1 when the result is an error. */
export async function callCommand(parsed: ParsedCommand): Promise<number> {
  const [server, tool, json] = parsed.positionals;
  if (!server || !tool)
    throw new HostError('USAGE', `call needs SERVER and TOOL, e.g. call files read_text_file '{"path":"a.txt"}'.`);
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch {
      throw new HostError('USAGE', `The arguments of call must be a JSON object; got ${JSON.stringify(json)}.`);
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new HostError('USAGE', `The arguments of call must be a JSON object; got ${JSON.stringify(json)}.`);
  }
  const context = await openCommandContext(parsed.options, { model: 'optional', servers: [server] });
  try {
    const status = parsed.options.quiet ? undefined : new StatusLine(writeError, Boolean(process.stderr.isTTY));
    const result = await context.host.call(server, tool, args as Record<string, unknown>, {
      ...(status ? { onProgress: (progress: ToolProgress) => status.progress(`⋯ ${server}.${tool}`, progress) } : {}),
    });
    status?.clear();
    writeOut(parsed.options.json ? `${JSON.stringify(result, null, 2)}\n` : `${describeResult(result)}\n`);
    return result.isError ? 1 : 0;
  } finally {
    await context.close();
  }
}
