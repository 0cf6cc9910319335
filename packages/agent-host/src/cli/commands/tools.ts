import type { ParsedCommand } from '../arguments.js';
import { openCommandContext } from '../command-context.js';
import { writeOut } from '../output.js';

/** `tools`: every connected server with its state, the roots it was offered, and its tools (model-facing name and description). */
export async function toolsCommand(parsed: ParsedCommand): Promise<number> {
  const { servers } = parsed.options;
  const context = await openCommandContext(parsed.options, {
    model: 'optional',
    ...(servers.length > 0 ? { servers } : {}),
  });
  try {
    const { host } = context;
    const servers = host.connections.map((connection) => ({
      server: connection.name,
      state: connection.state,
      ...(connection.error ? { error: connection.error } : {}),
      roots: connection.roots.map((root) => root.name ?? root.uri),
      tools: host.registry
        .list()
        .filter((entry) => entry.server === connection.name)
        .map((entry) => ({ name: entry.modelName, tool: entry.tool, description: entry.definition.description ?? '' })),
    }));
    if (parsed.options.json) {
      writeOut(`${JSON.stringify(servers, null, 2)}\n`);
      return host.failures.length > 0 ? 1 : 0;
    }
    const lines: string[] = [];
    for (const server of servers) {
      const count = `${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`;
      const roots = `roots: ${server.roots.join(', ') || 'none'}`;
      lines.push(`${server.server} (${server.state}${server.error ? `: ${server.error}` : `, ${count}`}, ${roots})`);
      const width = Math.max(0, ...server.tools.map((tool) => tool.name.length)) + 2;
      for (const tool of server.tools) {
        const description = tool.description.split('\n')[0] ?? '';
        lines.push(
          `  ${tool.name.padEnd(width)}${description.length > 100 ? `${description.slice(0, 99)}…` : description}`,
        );
      }
    }
    writeOut(`${lines.join('\n')}\n`);
    return host.failures.length > 0 ? 1 : 0;
  } finally {
    await context.close();
  }
}
