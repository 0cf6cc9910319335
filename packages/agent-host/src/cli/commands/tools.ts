import type { NegotiatedProtocol } from '../../connection/types.js';
import type { ParsedCommand } from '../arguments.js';
import { openCommandContext } from '../command-context.js';
import { writeOut } from '../output.js';

/** A negotiated protocol in a few words: `2026-07-28 (modern) over stdio`. */
export function describeProtocol(protocol: NegotiatedProtocol): string {
  return `${protocol.version} (${protocol.era}) over ${protocol.transport}`;
}

/**
 * `tools`: every server with its state, the protocol it negotiated (revision, era, transport), the roots it was
 * offered, and its tools (model-facing name, description).
 */
export async function toolsCommand(parsed: ParsedCommand): Promise<number> {
  const named = parsed.options.servers;
  const context = await openCommandContext(parsed.options, {
    model: 'optional',
    ...(named.length > 0 ? { servers: named } : {}),
  });
  try {
    const { host } = context;
    const listed = host.connections.map((connection) => ({
      server: connection.name,
      state: connection.state,
      ...(connection.error ? { error: connection.error } : {}),
      ...(connection.protocol ? { protocol: { ...connection.protocol } } : {}),
      roots: connection.roots.map((root) => root.name ?? root.uri),
      tools: host.registry
        .list()
        .filter((entry) => entry.server === connection.name)
        .map((entry) => ({ name: entry.modelName, tool: entry.tool, description: entry.definition.description ?? '' })),
    }));
    const notStarted = context.problems.map((problem) => ({
      server: problem.server,
      state: 'not started',
      error: problem.message,
      protocol: undefined,
      roots: [],
      tools: [],
    }));
    const servers = [...listed, ...notStarted];
    const failed = host.failures.length > 0 || notStarted.length > 0;
    if (parsed.options.json) {
      writeOut(`${JSON.stringify(servers, null, 2)}\n`);
      return failed ? 1 : 0;
    }
    const lines: string[] = [];
    for (const server of servers) {
      const count = `${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`;
      const roots = `roots: ${server.roots.join(', ') || 'none'}`;
      const protocol = server.protocol ? `protocol ${describeProtocol(server.protocol)}, ` : '';
      const summary = server.error ? `: ${server.error}` : `, ${count}`;
      lines.push(`${server.server} (${server.state}${summary}, ${protocol}${roots})`);
      const width = Math.max(0, ...server.tools.map((tool) => tool.name.length)) + 2;
      for (const tool of server.tools) {
        const description = tool.description.split('\n')[0] ?? '';
        lines.push(
          `  ${tool.name.padEnd(width)}${description.length > 100 ? `${description.slice(0, 99)}…` : description}`,
        );
      }
    }
    if (lines.length > 0) writeOut(`${lines.join('\n')}\n`);
    return failed ? 1 : 0;
  } finally {
    await context.close();
  }
}
