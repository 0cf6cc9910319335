import { randomBytes } from 'node:crypto';
import { approvalHandler } from '../../approvals/approval-handler.js';
import { approvalRulesOfConfig } from '../../approvals/approval-rules.js';
import { findConfigFile, loadConfigFile } from '../../config/load-config.js';
import { errorMessage, HostError } from '../../errors.js';
import { connectHost } from '../../host.js';
import { createAgent } from '../../loop/agent.js';
import { samplingHandler } from '../../loop/sampling.js';
import { selectModel } from '../../models/select-model.js';
import { EventStream } from '../../web/event-stream.js';
import { PendingQuestions } from '../../web/pending-questions.js';
import { startWebServer } from '../../web/web-server.js';
import { WebSession } from '../../web/web-session.js';
import { parseCommandLine } from '../arguments.js';
import { writeError, writeOut } from '../output.js';

const webUsage = `mcpkit-host web: a local page to talk to the agent and watch every tool call.

Usage:
  mcpkit-host web [--config FILE] [--model PROVIDER:MODEL] [--port N] [--listen ADDRESS] [options of run]

  Prints the page's address, with a token for this run, and serves it on 127.0.0.1 until Ctrl-C.
      --port N             the port (default: any free one)
      --listen ADDRESS     serve on another interface, such as 0.0.0.0 (anyone who can reach it and has the
                           address with its token can use your servers and model)
Approvals, forms and sampling requests are asked on the page; see mcpkit-host --help for the other options.
`;

/** `--port` and `--listen` taken out of the command line; the rest are the common options. */
function webFlags(argv: string[]): { rest: string[]; port?: number; listen?: string } {
  const rest: string[] = [];
  const flags: { port?: number; listen?: string } = {};
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index] ?? '';
    const match = /^--(port|listen)(?:=(.*))?$/.exec(word);
    if (!match) {
      rest.push(word);
      continue;
    }
    const value = match[2] ?? argv[++index];
    if (value === undefined || value === '') throw new HostError('USAGE', `--${match[1]} needs a value.`);
    if (match[1] === 'listen') flags.listen = value;
    else {
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65_535) {
        throw new HostError('USAGE', `--port takes a port number; got ${JSON.stringify(value)}.`);
      }
      flags.port = port;
    }
  }
  return { rest, ...flags };
}

/**
 * `web`: connects the servers, serves the page on loopback and runs the agent for it until interrupted. It reads its
 * own command line (the common options plus --port and --listen) and reports its errors like the other commands.
 */
export async function webCommand(argv: string[]): Promise<number> {
  try {
    return await serveWeb(argv);
  } catch (error) {
    const usageError = HostError.isInstance(error) && error.code === 'USAGE';
    writeError(`mcpkit-host: ${errorMessage(error)}\n${usageError ? 'Run mcpkit-host web --help for usage.\n' : ''}`);
    return usageError ? 2 : 1;
  }
}

async function serveWeb(argv: string[]): Promise<number> {
  const flags = webFlags(argv);
  const parsed = parseCommandLine(['web', ...flags.rest]);
  if (parsed.help) {
    writeOut(webUsage);
    return 0;
  }
  const { options } = parsed;
  const listen = flags.listen;
  if (listen && listen !== '127.0.0.1') {
    writeError(
      `mcpkit-host web: warning: serving on ${listen}, beyond this machine's loopback. Whoever reaches it with the ` +
        'printed address (its token) can use your servers and your model.\n',
    );
  }
  const config = await loadConfigFile(findConfigFile(options.config), { inputValues: options.inputs });
  for (const problem of config.problems ?? []) writeError(`mcpkit-host: ${problem.message}\n`);
  if (options.timeoutMs !== undefined) {
    for (const server of config.servers) server.callTimeoutMs = options.timeoutMs;
  }
  const selected = await selectModel(options.model);
  const stream = new EventStream();
  const questions = new PendingQuestions(stream);
  const host = await connectHost(config, {
    log: options.quiet ? () => {} : (server, line) => writeError(`[${server}] ${line}\n`),
    ...(options.roots.length > 0 ? { roots: options.roots } : {}),
    sample: samplingHandler({
      policy: options.sampling ?? 'ask',
      model: selected.model,
      confirm: questions.confirmSampling,
    }),
    elicit: questions.elicit,
  });
  const agent = createAgent({
    host,
    model: selected.model,
    ...(options.system ? { system: options.system } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}),
    ...(options.maxResultTokens ? { maxResultTokens: options.maxResultTokens } : {}),
    approve: approvalHandler({
      rules: [options.approve, approvalRulesOfConfig(host.connections.map((each) => each.config))],
      ask: questions.approve,
    }),
  });
  const modelName = options.model ?? process.env.MCPKIT_MODEL ?? 'default model';
  const session = new WebSession({ host, agent, stream, questions, modelName });
  const token = randomBytes(24).toString('base64url');
  const server = await startWebServer({
    session,
    stream,
    questions,
    token,
    ...(listen ? { hostname: listen } : {}),
    ...(flags.port !== undefined ? { port: flags.port } : {}),
  });
  writeError(`Connected: ${host.registry.size} tools. Open the page (Ctrl-C ends):\n`);
  writeOut(`${server.url}\n`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  session.close();
  await server.close();
  await host.close();
  await selected.close();
  return 0;
}
