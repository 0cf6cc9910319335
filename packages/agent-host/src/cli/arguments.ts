import { parseArgs } from 'node:util';
import type { ApprovalRules } from '../approvals/approval-policy.js';
import { approvalRulesOfFlags } from '../approvals/approval-rules.js';
import { errorMessage, HostError } from '../errors.js';
import type { SamplingPolicy } from '../loop/sampling.js';
import { type ToolSearchMode, toolSearchModes } from '../tool-search/tool-selection.js';

/** The options every command takes, parsed. */
export interface CommonOptions {
  config?: string;
  model?: string;
  json: boolean;
  quiet: boolean;
  maxSteps?: number;
  timeoutMs?: number;
  system?: string;
  sampling?: SamplingPolicy;
  /** `--approve` flags as rules; they win over the config's. */
  approve: ApprovalRules;
  toolSearch?: ToolSearchMode;
  maxResultTokens?: number;
  roots: string[];
  /** `tools`: only these servers are started and listed. */
  servers: string[];
  /** Values of VS Code inputs given as `--input id=value`, by id. */
  inputs: Record<string, string>;
  /** `install`: the entry's key in the client's config. */
  name?: string;
  /** `install`: merge into the client's config file instead of printing the entry. */
  write: boolean;
}

/** A parsed command line. */
export interface ParsedCommand {
  command: string;
  positionals: string[];
  options: CommonOptions;
  help: boolean;
  version: boolean;
}

const options = {
  config: { type: 'string', short: 'c' },
  model: { type: 'string', short: 'm' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  'max-steps': { type: 'string' },
  timeout: { type: 'string' },
  system: { type: 'string' },
  sampling: { type: 'string' },
  approve: { type: 'string', multiple: true },
  'tool-search': { type: 'string' },
  'max-result-tokens': { type: 'string' },
  root: { type: 'string', multiple: true },
  server: { type: 'string', multiple: true },
  input: { type: 'string', multiple: true },
  name: { type: 'string' },
  write: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

/** The `--help` text. */
export const usage = `mcpkit-host: connect MCP servers from a config and run an agent over them.

Usage:
  mcpkit-host run "QUESTION"          answer on stdout, a trace of tool calls on stderr (or pipe the question in)
  mcpkit-host chat                    an interactive chat (/tools, /prompts, /prompt, /resources, /attach, /exit)
  mcpkit-host web [--port N] [--listen ADDRESS]
                                      the chat on a local page in the browser, every tool call shown (see
                                      mcpkit-host web --help)
  mcpkit-host tools [--server NAME]   list the servers' tools, grouped by server (--server: only that one, started
                                      alone; repeatable)
  mcpkit-host call SERVER TOOL [JSON] call a tool directly, without a model (starts only SERVER)
  mcpkit-host auth login|logout|status SERVER
                                      sign in to an HTTP server protected by OAuth in the browser, forget the
                                      sign-in, or show it (tokens are kept in a file only you can read)
  mcpkit-host conformance-client URL  the client side of the official MCP conformance suite
  mcpkit-host install CLIENT SERVER [-- ARGS...]
                                      the config entry that starts one of this checkout's servers
                                      (database, filesystem, search) in claude, cursor or vscode

Options:
  -c, --config FILE        config with "mcpServers" or "servers", JSON with comments (default ./mcp.json, then
                           .mcp.json, .vscode/mcp.json, .cursor/mcp.json, then Claude Desktop's)
  -m, --model PROVIDER:MODEL  openai:gpt-4o-mini, anthropic:claude-sonnet-4-5, ollama:llama3.1,
                           scripted:FILE.json (default: MCPKIT_MODEL, else whichever API key is set)
      --json               print JSON: the whole transcript for run, the raw result for call, the list for tools
  -q, --quiet              no trace and no server logs on stderr
      --max-steps N        most tool-calling turns per question (default 10)
      --timeout MS         longest silence of a tool call; progress notifications reset it (default: the
                           config's, else 60000)
      --system TEXT        instructions for the model
      --sampling POLICY    whether servers may use the model: allow, ask, deny (default ask: chat asks you,
                           the other commands decline)
      --approve POLICY     which tool calls run without asking: allow, ask, always-ask, read-only (default ask:
                           read-only tools run, chat asks about the others, run refuses them); SERVER=POLICY
                           or SERVER/TOOL=POLICY for one server or tool (repeatable; wins over the config)
      --tool-search MODE   always, never, or auto (default: on above 40 tools): the model gets search_tools
                           and the tools it finds instead of every schema
      --max-result-tokens N  most tokens of one tool result the model gets (default 25000); the rest is cut
                           with a note
      --root DIR           a root directory offered to every server (repeatable; replaces the config's "roots";
                           without either, servers are offered no roots)
      --input ID=VALUE     the value of a VS Code input (repeatable); else MCPKIT_INPUT_<ID> (ID in capitals,
                           other characters as _), else asked at a terminal
      --name NAME          install: the entry's name in the client's config (default mcpkit-SERVER)
      --write              install: merge the entry into the client's config file, after a backup
  -h, --help               show this help
  -v, --version            show the version

Environment:
  OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OLLAMA_HOST, MCPKIT_MODEL,
  MCPKIT_INPUT_<ID> (the value of a VS Code input), MCPKIT_HOST_TOKEN_FILE (where sign-ins are kept; default
  mcpkit/tokens.json in the platform's config directory)
`;

function positiveInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0) {
    throw new HostError('USAGE', `--${name} takes a positive whole number; got ${JSON.stringify(value)}.`);
  }
  return number;
}

function inputValues(pairs: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) throw new HostError('USAGE', `--input takes ID=VALUE; got ${JSON.stringify(pair)}.`);
    values[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return values;
}

/** Parses the command line with node:util parseArgs; a bad flag or value is a USAGE HostError. */
export function parseCommandLine(argv: string[]): ParsedCommand {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof options; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new HostError('USAGE', errorMessage(error));
  }
  const { values, positionals } = parsed;
  const sampling = values.sampling;
  if (sampling !== undefined && !['allow', 'ask', 'deny'].includes(sampling)) {
    throw new HostError('USAGE', `--sampling takes allow, ask or deny; got ${JSON.stringify(sampling)}.`);
  }
  const toolSearch = values['tool-search'];
  if (toolSearch !== undefined && !(toolSearchModes as readonly string[]).includes(toolSearch)) {
    throw new HostError('USAGE', `--tool-search takes always, auto or never; got ${JSON.stringify(toolSearch)}.`);
  }
  const maxResultTokens = positiveInteger('max-result-tokens', values['max-result-tokens']);
  const maxSteps = positiveInteger('max-steps', values['max-steps']);
  const timeoutMs = positiveInteger('timeout', values.timeout);
  return {
    command: positionals[0] ?? '',
    positionals: positionals.slice(1),
    help: values.help ?? false,
    version: values.version ?? false,
    options: {
      json: values.json ?? false,
      quiet: values.quiet ?? false,
      write: values.write ?? false,
      ...(values.name !== undefined ? { name: values.name } : {}),
      roots: values.root ?? [],
      approve: approvalRulesOfFlags(values.approve ?? []),
      ...(toolSearch !== undefined ? { toolSearch: toolSearch as ToolSearchMode } : {}),
      ...(maxResultTokens !== undefined ? { maxResultTokens } : {}),
      servers: values.server ?? [],
      inputs: inputValues(values.input ?? []),
      ...(values.config !== undefined ? { config: values.config } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(maxSteps !== undefined ? { maxSteps } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(values.system !== undefined ? { system: values.system } : {}),
      ...(sampling !== undefined ? { sampling: sampling as SamplingPolicy } : {}),
    },
  };
}
