/** What the pool sends a worker: one call of a task module's export. */
export interface TaskRequest {
  id: number;
  /** The task module's file URL. */
  module: string;
  name: string;
  input: unknown;
}

/** What a worker sends back: the output, or the error's message and whether it was a ToolError. */
export type TaskReply =
  | { id: number; output: unknown }
  | { id: number; error: { message: string; toolError: boolean } };
