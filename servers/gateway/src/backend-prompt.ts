import type { Prompt } from '@mcpkit/agent-host';
import { type AnyPrompt, definePrompt, type GetPromptResult } from '@mcpkit/server-kit';
import { z } from 'zod';

/** Gets a backend's prompt: the connection's `getPrompt`. */
export type GetBackendPrompt = (server: string, name: string, args: Record<string, string>) => Promise<GetPromptResult>;

/** A backend's prompt under the gateway name `name`, its arguments as the backend listed them (strings). */
export function backendPrompt(name: string, server: string, prompt: Prompt, getPrompt: GetBackendPrompt): AnyPrompt {
  const shape: Record<string, z.ZodType> = {};
  for (const argument of prompt.arguments ?? []) {
    const field = argument.description ? z.string().describe(argument.description) : z.string();
    shape[argument.name] = argument.required ? field : field.optional();
  }
  return definePrompt({
    name,
    ...(prompt.title ? { title: prompt.title } : {}),
    ...(prompt.description ? { description: prompt.description } : {}),
    arguments: z.object(shape),
    render: (args) => getPrompt(server, prompt.name, args as Record<string, string>),
  });
}
