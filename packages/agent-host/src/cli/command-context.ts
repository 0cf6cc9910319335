import { findConfigFile, loadConfigFile } from '../config/load-config.js';
import type { ConfigInput } from '../config/parse-config.js';
import type { ConfigProblem } from '../config/server-config.js';
import { HostError } from '../errors.js';
import { connectHost, type Host } from '../host.js';
import { samplingHandler } from '../loop/sampling.js';
import type { Model } from '../models/model.js';
import { selectModel } from '../models/select-model.js';
import type { CommonOptions } from './arguments.js';
import { askForm, askInput, confirmSampling } from './interactive.js';
import { LineReader } from './line-reader.js';
import { isInteractive, writeError } from './output.js';

/** What a command works with: the connected host and, when it needs one, the model. */
export interface CommandContext {
  host: Host;
  /** Servers of the config that were not started because a variable or input they use has no value. */
  problems: readonly ConfigProblem[];
  model: Model | undefined;
  close(): Promise<void>;
}

/** What a command needs in its context. */
export interface CommandNeeds {
  /** Whether the command fails without a model (run, chat) or only loses sampling (tools, call). */
  model: 'required' | 'optional';
  /** The line editor when a person can answer questions (chat); absent means decline what needs a person. */
  prompt?: LineReader;
  /** Starts only these servers of the config (call, tools --server); absent starts every enabled one. */
  servers?: readonly string[];
}

/** Loads the config, selects the model, connects every server, and reports servers that failed. */
export async function openCommandContext(options: CommonOptions, needs: CommandNeeds): Promise<CommandContext> {
  const file = findConfigFile(options.config);
  const prompt = needs.prompt;
  // VS Code inputs are asked at the terminal even by one-shot commands; a reader is opened only when one is needed.
  let inputReader: LineReader | undefined;
  const reader = () => {
    inputReader ??= prompt ?? new LineReader();
    return inputReader;
  };
  const config = await loadConfigFile(file, {
    ...(prompt || isInteractive() ? { resolveInput: (input: ConfigInput) => askInput(reader(), input) } : {}),
    ...(needs.servers ? { only: needs.servers } : {}),
    inputValues: options.inputs,
  }).finally(() => {
    if (inputReader && inputReader !== prompt) inputReader.close();
  });
  const problems = config.problems ?? [];
  // A server named on the command line that cannot be read is the command's failure; otherwise the others go on.
  const named = problems.find((problem) => needs.servers?.includes(problem.server));
  if (named) throw new HostError('SERVER_UNAVAILABLE', named.message);
  for (const problem of problems) writeError(`mcpkit-host: ${problem.message}\n`);
  if (config.servers.length === 0 && problems.length === 0) {
    writeError(`mcpkit-host: ${file} lists no servers; add some under "mcpServers" ("servers" for VS Code).\n`);
  }
  if (options.timeoutMs !== undefined) {
    for (const server of config.servers) server.callTimeoutMs = options.timeoutMs;
  }
  const selected =
    needs.model === 'required' || options.model !== undefined
      ? await selectModel(options.model)
      : await selectModel(undefined).catch(() => undefined);
  const model = selected?.model;
  const policy = options.sampling ?? 'ask';
  try {
    const host = await connectHost(config, {
      log: options.quiet ? () => {} : (server, line) => writeError(`[${server}] ${line}\n`),
      ...(options.roots.length > 0 ? { roots: options.roots } : {}),
      ...(model
        ? {
            sample: samplingHandler({
              policy,
              model,
              ...(prompt ? { confirm: (request) => confirmSampling(prompt, request) } : {}),
            }),
          }
        : {}),
      ...(prompt ? { elicit: (request) => askForm(prompt, request) } : {}),
    });
    return {
      host,
      problems,
      model,
      close: async () => {
        await host.close();
        await selected?.close();
      },
    };
  } catch (error) {
    await selected?.close();
    throw error;
  }
}
