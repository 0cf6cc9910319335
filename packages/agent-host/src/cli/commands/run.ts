import { approvalHandler } from '../../approvals/approval-handler.js';
import { approvalRulesOfConfig } from '../../approvals/approval-rules.js';
import { HostError } from '../../errors.js';
import { createAgent } from '../../loop/agent.js';
import type { ParsedCommand } from '../arguments.js';
import { openCommandContext } from '../command-context.js';
import { writeError, writeOut } from '../output.js';
import { StatusLine } from '../status-line.js';

async function pipedInput(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** `run "question"`: the answer on stdout, a trace on stderr, or the whole transcript with `--json`. */
export async function runCommand(parsed: ParsedCommand): Promise<number> {
  // The question is the arguments, or what is piped in (`cat question.txt | mcpkit-host run`).
  const question = (parsed.positionals.length > 0 ? parsed.positionals.join(' ') : await pipedInput()).trim();
  if (!question) throw new HostError('USAGE', 'run needs a question, e.g. mcpkit-host run "What is in notes.txt?"');
  const { options } = parsed;
  const context = await openCommandContext(options, { model: 'required' });
  const controller = new AbortController();
  // The first Ctrl-C cancels the run (servers are told); a second one leaves at once.
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    writeError('cancelling…\n');
    controller.abort();
  };
  process.on('SIGINT', interrupt);
  try {
    const agent = createAgent({
      host: context.host,
      model: context.model!,
      ...(options.system ? { system: options.system } : {}),
      ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
      ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}),
      ...(options.maxResultTokens ? { maxResultTokens: options.maxResultTokens } : {}),
      // No one is asked during a run: what needs approval is refused, unless --approve or the config allows it.
      approve: approvalHandler({
        rules: [options.approve, approvalRulesOfConfig(context.host.connections.map((each) => each.config))],
        howToAllow: (call) => `(The user can allow it with --approve ${call.server}/${call.tool}=allow.)`,
      }),
    });
    if (!options.quiet && !options.json) {
      agent.subscribe(new StatusLine(writeError, Boolean(process.stderr.isTTY)).traceListener());
    }
    const result = await agent.run(question, { signal: controller.signal });
    if (options.json) {
      const { host } = context;
      writeOut(
        `${JSON.stringify(
          {
            answer: result.answer,
            stoppedBy: result.stoppedBy,
            steps: result.steps,
            usage: result.usage,
            failures: host.failures,
            messages: result.messages,
          },
          null,
          2,
        )}\n`,
      );
    } else if (result.stoppedBy !== 'cancelled') {
      writeOut(`${result.answer}\n`);
    }
    return result.stoppedBy === 'cancelled' ? 130 : 0;
  } finally {
    process.off('SIGINT', interrupt);
    await context.close();
  }
}
