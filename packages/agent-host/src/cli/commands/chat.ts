import { approvalHandler } from '../../approvals/approval-handler.js';
import { approvalRulesOfConfig } from '../../approvals/approval-rules.js';
import { errorMessage } from '../../errors.js';
import type { Host } from '../../host.js';
import { createAgent } from '../../loop/agent.js';
import { contentBlockParts } from '../../loop/tool-content.js';
import type { ContentPart } from '../../models/messages.js';
import { expandUriTemplate, templateVariables } from '../../resources/uri-template.js';
import type { ToolSelection } from '../../tool-search/tool-selection.js';
import type { ParsedCommand } from '../arguments.js';
import { openCommandContext } from '../command-context.js';
import { confirmToolCall } from '../interactive.js';
import { LineReader } from '../line-reader.js';
import { writeError, writeOut } from '../output.js';
import { StatusLine } from '../status-line.js';

const help = `Commands:
  /tools                 list the tools
  /prompts               list the servers' prompts
  /prompt NAME [k=v ...] send a server's prompt as your next message
  /resources             list the servers' resources and resource templates
  /attach URI            attach a resource (listed, or linked by a tool) to your next message
  /attach TEMPLATE k=v   attach a resource of a template, its values filled in
  /exit                  leave (or Ctrl-D)
`;

function findPrompt(host: Host, name: string) {
  const [serverName, promptName] = name.includes('/') ? name.split('/', 2) : [undefined, name];
  for (const connection of host.connections) {
    if (serverName && connection.name !== serverName) continue;
    if (connection.prompts.some((prompt) => prompt.name === promptName)) return { connection, name: promptName ?? '' };
  }
  return undefined;
}

/** `k=v` words as an object. */
function keyValues(pairs: string[]): Record<string, string> {
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

/** Reads a resource (a URI, or a template and its values) and adds its contents to the next message's parts. */
async function attach(host: Host, target: string | undefined, pairs: string[], attachments: ContentPart[]) {
  if (!target) {
    writeError('/attach needs a URI, or a template with its values; see /resources.\n');
    return;
  }
  let uri = target;
  let server: string | undefined;
  if (target.includes('{')) {
    const values = keyValues(pairs);
    const missing = templateVariables(target).filter((name) => values[name] === undefined);
    if (missing.length > 0) {
      writeError(`The template ${target} needs ${missing.map((name) => `${name}=…`).join(' ')}.\n`);
      return;
    }
    uri = expandUriTemplate(target, values);
    server = host.connections.find((connection) =>
      connection.resourceTemplates.some((template) => template.uriTemplate === target),
    )?.name;
  }
  const read = await host.readResource(uri, server);
  for (const content of read.contents) {
    attachments.push(
      'text' in content
        ? { type: 'text', text: `Attached ${content.uri}:\n${content.text}` }
        : { type: 'text', text: `[binary resource ${content.uri} not attached]` },
    );
  }
  writeError(`Attached ${uri} to your next message.\n`);
}

/** `/tools`: every tool; with tool search on, the ones the model has now (pinned or loaded) are marked `*`. */
function listTools(host: Host, tools: ToolSelection): void {
  const offered = tools.searching ? new Set(tools.offered().map((entry) => entry.modelName)) : undefined;
  if (offered) writeOut('Tool search is on: the model finds tools with search_tools; * marks the ones it has now.\n');
  for (const entry of host.registry.list()) {
    const mark = offered ? (offered.has(entry.modelName) ? '* ' : '  ') : '';
    writeOut(`${mark}${entry.modelName}  ${entry.definition.description ?? ''}\n`);
  }
}

/** Turns a command of the chat into what to send next, or undefined when it was handled here. */
async function slashCommand(
  host: Host,
  tools: ToolSelection,
  line: string,
  attachments: ContentPart[],
): Promise<ContentPart[] | undefined> {
  const [command, ...rest] = line.trim().split(/\s+/);
  if (command === '/help') writeOut(help);
  else if (command === '/tools') listTools(host, tools);
  else if (command === '/prompts') {
    for (const connection of host.connections) {
      for (const prompt of connection.prompts) {
        const args = (prompt.arguments ?? []).map((argument) => `${argument.name}${argument.required ? '' : '?'}=…`);
        writeOut(`${connection.name}/${prompt.name} ${args.join(' ')}  ${prompt.description ?? ''}\n`);
      }
    }
  } else if (command === '/resources') {
    for (const connection of host.connections) {
      for (const resource of connection.resources) writeOut(`${resource.uri}  ${resource.name} (${connection.name})\n`);
      for (const template of connection.resourceTemplates) {
        const values = templateVariables(template.uriTemplate).map((name) => ` ${name}=…`);
        writeOut(`${template.uriTemplate}${values.join('')}  ${template.name} (${connection.name}, template)\n`);
      }
    }
  } else if (command === '/attach') {
    await attach(host, rest[0], rest.slice(1), attachments);
  } else if (command === '/prompt') {
    const found = findPrompt(host, rest[0] ?? '');
    if (!found) writeError(`No prompt ${rest[0] ?? '(none given)'}; see /prompts.\n`);
    else {
      const prompt = await found.connection.getPrompt(found.name, keyValues(rest.slice(1)));
      // Text, images and embedded resources reach the conversation; audio and binary resources are described.
      return contentBlockParts(prompt.messages.map((message) => message.content));
    }
  } else writeError(`Unknown command ${command}.\n${help}`);
  return undefined;
}

/** `chat`: a REPL over the agent, streaming answers to stdout; forms and sampling requests are asked here. */
export async function chatCommand(parsed: ParsedCommand): Promise<number> {
  const { options } = parsed;
  const prompt = new LineReader();
  const context = await openCommandContext(options, { model: 'required', prompt });
  const status = new StatusLine(writeError, Boolean(process.stderr.isTTY));
  const agent = createAgent({
    host: context.host,
    model: context.model!,
    ...(options.system ? { system: options.system } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    ...(options.toolSearch ? { toolSearch: options.toolSearch } : {}),
    ...(options.maxResultTokens ? { maxResultTokens: options.maxResultTokens } : {}),
    // Asks about tools that are not read-only; "always" lasts until the chat ends.
    approve: approvalHandler({
      rules: [options.approve, approvalRulesOfConfig(context.host.connections.map((each) => each.config))],
      ask: (request) => {
        status.clear();
        return confirmToolCall(prompt, request);
      },
    }),
  });
  if (!options.quiet) agent.subscribe(status.traceListener());
  let streamed = false;
  agent.subscribe((event) => {
    if (event.type === 'text-delta') {
      status.clear();
      writeOut(event.text);
      streamed = true;
    } else if (event.type === 'model-response' && streamed) {
      writeOut('\n');
      streamed = false;
    }
  });
  let running: AbortController | undefined;
  prompt.onInterrupt(() => {
    if (running) running.abort();
    else prompt.close();
  });
  const attachments: ContentPart[] = [];
  const searching = agent.tools.searching ? ' (tool search on: the model finds them with search_tools)' : '';
  writeError(`Connected: ${context.host.registry.size} tools${searching}. Type /help for commands.\n`);
  try {
    for (;;) {
      let line: string;
      try {
        line = await prompt.question('> ');
      } catch {
        break;
      }
      if (line.trim() === '') continue;
      if (line.trim() === '/exit') break;
      let content: ContentPart[] = [{ type: 'text', text: line }];
      if (line.startsWith('/')) {
        try {
          const fromPrompt = await slashCommand(context.host, agent.tools, line, attachments);
          if (!fromPrompt) continue;
          content = fromPrompt;
        } catch (error) {
          writeError(`${errorMessage(error)}\n`);
          continue;
        }
      }
      running = new AbortController();
      try {
        await agent.run([...attachments.splice(0), ...content], { signal: running.signal });
      } catch (error) {
        writeError(`${errorMessage(error)}\n`);
      } finally {
        running = undefined;
      }
    }
  } finally {
    prompt.close();
    await context.close();
  }
  return 0;
}
