import type { RegisteredTool } from '@mcpkit/agent-host';
import { type AnyTool, defineTool, type ToolContext } from '@mcpkit/server-kit';
import type { OpenCalls } from './open-calls.js';

/** Calls a backend's tool: the host's `call`. */
export type CallBackend = (
  server: string,
  tool: string,
  args: Record<string, unknown>,
  options: { signal: AbortSignal; onProgress(progress: { progress: number; total?: number; message?: string }): void },
) => Promise<unknown>;

/**
 * A backend's tool as a gateway tool: its model-facing name from the host's registry (`server__tool`, collision-free),
 * its description, input schema and annotations as the backend listed them. A call goes to the backend with the
 * client's cancellation and comes back with the backend's progress and result.
 */
export function backendTool(entry: RegisteredTool, callBackend: CallBackend, open: OpenCalls): AnyTool {
  const { definition } = entry;
  return defineTool({
    name: entry.modelName,
    ...(definition.title ? { title: definition.title } : {}),
    description: definition.description?.trim() || `The tool "${entry.tool}" of the server "${entry.server}".`,
    inputJsonSchema: { ...definition.inputSchema, type: 'object' },
    ...(definition.annotations ? { annotations: definition.annotations } : {}),
    handler: (args: Record<string, unknown>, context: ToolContext) =>
      open.during(entry.server, context, async () => {
        // Progress goes out in order, and all of it before the result: a client forgets a call's progress token once
        // the result has arrived.
        let sent: Promise<void> = Promise.resolve();
        const result = await callBackend(entry.server, entry.tool, args, {
          signal: context.signal,
          onProgress: (progress) => {
            sent = sent
              .then(() => context.progress(progress.progress, progress.total, progress.message))
              .catch(() => {});
          },
        });
        await sent;
        return result as never;
      }),
  });
}
