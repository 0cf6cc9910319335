// #region greet
import { defineTool } from '@mcpkit/server-kit';
import { z } from 'zod';

/** `greet`: the smallest useful tool. */
export function greet(greeting: string) {
  return defineTool({
    name: 'greet',
    description: 'Greets someone by name. Use it to say hello to the user.',
    input: z.object({
      name: z.string().min(1).describe('Who to greet'),
    }),
    annotations: { readOnlyHint: true },
    handler: ({ name }) => `${greeting}, ${name}!`,
  });
}
// #endregion greet
