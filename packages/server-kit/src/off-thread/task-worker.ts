import { parentPort } from 'node:worker_threads';
import { errorMessage, ToolError } from '../errors.js';
import type { TaskReply, TaskRequest } from './task-protocol.js';

// The entry of every off-thread worker: imports a task module once, calls the named export per request.
const modules = new Map<string, Promise<Record<string, unknown>>>();

parentPort?.on('message', async (request: TaskRequest) => {
  let reply: TaskReply;
  try {
    let loaded = modules.get(request.module);
    if (!loaded) {
      loaded = import(request.module) as Promise<Record<string, unknown>>;
      modules.set(request.module, loaded);
    }
    const task = (await loaded)[request.name];
    if (typeof task !== 'function') throw new Error(`${request.module} exports no function named ${request.name}`);
    reply = { id: request.id, output: await task(request.input) };
  } catch (error) {
    reply = { id: request.id, error: { message: errorMessage(error), toolError: ToolError.isInstance(error) } };
  }
  parentPort?.postMessage(reply);
});
