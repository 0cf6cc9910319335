import { spawn } from 'node:child_process';

/** What a stdio server process loaded while it answered: module URLs in load order, its stderr and exit code. */
export interface ModulesLoaded {
  /** Every module the process loaded (its own files, packages and `node:` built-ins), as URLs. */
  modules: string[];
  /** All of stderr (the module log lines included). */
  stderr: string;
  /** The exit code once stdin closed, or the signal's name. */
  exit: number | string;
}

/** Options of {@link modulesLoadedAnswering}. */
export interface ModulesLoadedOptions {
  /** More code run before the server (an ES module's text), e.g. to log other things to stderr. */
  preload?: string;
  /** How long to wait for each answer and for the exit (default 20 s). */
  timeoutMs?: number;
}

// Registered from the preload: writes `loaded <url>` to stderr for every module, from the loader's hooks thread, with
// a synchronous write to the file descriptor: the line is out before the module is handed over, whatever a worker
// thread's process.stderr does with its writes, so it comes before anything the process writes once it has it.
const loaderHooks = `import { writeSync } from 'node:fs';
export async function load(url, context, next) {
  writeSync(2, 'loaded ' + url + '\\n');
  return next(url, context);
}`;

/**
 * Runs `node ...args` (a stdio MCP server) with every module it loads logged, writes `messages` as JSON-RPC lines and
 * waits for the answer to each request (a message with an `id`) before the next, then closes stdin and waits for the
 * exit. For cold-start tests: what a server loads before answering, say, its first `tools/list`.
 */
export async function modulesLoadedAnswering(
  args: string[],
  messages: Record<string, unknown>[],
  options: ModulesLoadedOptions = {},
): Promise<ModulesLoaded> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const preload = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(loaderHooks)}));
${options.preload ?? ''}`;
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  const answered = (id: unknown) =>
    stdout
      .split('\n')
      .filter(Boolean)
      .some((line) => (JSON.parse(line) as { id?: unknown }).id === id);
  const waitFor = async (done: () => boolean, what: string) => {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline) {
        child.kill();
        throw new Error(`${what} did not come within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  for (const message of messages) {
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    if (message.id !== undefined) await waitFor(() => answered(message.id), `The answer to request ${message.id}`);
  }
  child.stdin.end();
  let exit: number | string | undefined;
  void exited.then((value) => {
    exit = value;
  });
  await waitFor(() => exit !== undefined, 'The exit after stdin closed');
  const modules = stderr
    .split('\n')
    .filter((line) => line.startsWith('loaded '))
    .map((line) => line.slice('loaded '.length));
  return { modules, stderr, exit: exit as number | string };
}
