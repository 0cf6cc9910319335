import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runDemo } from './run-demo.js';

const usage = `Usage: mcpkit-demo [--model provider:model] [--data DIR] [--verbose]

Runs the end-to-end demo: the agent host answers four questions through the database, filesystem and search
servers. Without --model (or OPENAI_API_KEY / ANTHROPIC_API_KEY / MCPKIT_MODEL) it uses the scripted model.
`;

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    data: { type: 'string' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(usage);
  process.exit(0);
}

const started = performance.now();
const result = await runDemo({
  dataDirectory: values.data ?? fileURLToPath(new URL('../../../.demo-data', import.meta.url)),
  ...(values.model ? { model: values.model } : {}),
  write: (text) => process.stdout.write(text),
  ...(values.verbose ? { serverLog: (server, line) => process.stderr.write(`[${server}] ${line}\n`) } : {}),
});
const seconds = ((performance.now() - started) / 1000).toFixed(1);
process.stdout.write(`Played ${result.runs.length} scenarios in ${seconds} s.\n`);
