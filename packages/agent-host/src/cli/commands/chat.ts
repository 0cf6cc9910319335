import { errorMessage } from '../../errors.js';
import type { Host } from '../../host.js';
import { createAgent } from '../../loop/agent.js';
import { traceListener } from '../../loop/trace.js';
import type { ContentPart } from '../../models/messages.js';
import type { ParsedCommand } from '../arguments.js';
import { openCommandContext } from '../command-context.js';
import { LineReader } from '../line-reader.js';
import { writeError, writeOut } from '../output.js';

const help = `Commands:
  /tools                 list the tools
  /prompts               list the servers' prompts
  /prompt NAME [k=v ...] send a server's prompt as your next message
  /resources             list the servers' resources
  /attach URI            attach a resource to your next message
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

/** Turns a command of the chat into what to send next, or undefined when it was handled here. */
async function slashCommand(host: Host, line: string, attachments: ContentPart[]): Promise<ContentPart[] | undefined> {
  const [command, ...rest] = line.trim().split(/\s+/);
  if (command === '/help') writeOut(help);
  else if (command === '/tools') {
    for (const entry of host.registry.list()) writeOut(`${entry.modelName}  ${entry.definition.description ?? ''}\n`);
  } else if (command === '/prompts') {
    for (const connection of host.connections) {
      for (const prompt of connection.prompts) {
        const args = (prompt.arguments ?? []).map((argument) => `${argument.name}${argument.required ? '' : '?'}=…`);
        writeOut(`${connection.name}/${prompt.name} ${args.join(' ')}  ${prompt.description ?? ''}\n`);
      }
    }
  } else if (command === '/resources') {
    for (const connection of host.connections) {
      for (const resource of connection.resources) writeOut(`${resource.uri}  ${resource.name} (${connection.name})\n`);
    }
  } else if (command === '/attach') {
    const uri = rest[0];
    const connection = host.connections.find((each) => each.resources.some((resource) => resource.uri === uri));
    if (!uri || !connection) writeError(`No server lists the resource ${uri ?? '(none given)'}; see /resources.\n`);
    else {
      const read = await connection.readResource(uri);
      for (const content of read.contents) {
        attachments.push(
          'text' in content
            ? { type: 'text', text: `Attached ${content.uri}:\n${content.text}` }
            : { type: 'text', text: `[binary resource ${content.uri} not attached]` },
        );
      }
      writeError(`Attached ${uri} to your next message.\n`);
    }
  } else if (command === '/prompt') {
    const found = findPrompt(host, rest[0] ?? '');
    if (!found) writeError(`No prompt ${rest[0] ?? '(none given)'}; see /prompts.\n`);
    else {
      const args = Object.fromEntries(
        rest.slice(1).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
      );
      const prompt = await found.connection.getPrompt(found.name, args);
      return prompt.messages.map((message) =>
        message.content.type === 'text'
          ? { type: 'text', text: message.content.text }
          : { type: 'text', text: `[${message.content.type} from the prompt omitted]` },
      );
    }
  } else writeError(`Unknown command ${command}.\n${help}`);
  return undefined;
}

/** `chat`: a REPL over the agent, streaming answers to stdout; forms and sampling requests are asked here. */
export async function chatCommand(parsed: ParsedCommand): Promise<number> {
  const { options } = parsed;
  const prompt = new LineReader();
  const context = await openCommandContext(options, { model: 'required', prompt });
  const agent = createAgent({
    host: context.host,
    model: context.model!,
    ...(options.system ? { system: options.system } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
  });
  if (!options.quiet) agent.subscribe(traceListener(writeError));
  let streamed = false;
  agent.subscribe((event) => {
    if (event.type === 'text-delta') {
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
  writeError(`Connected: ${context.host.registry.size} tools. Type /help for commands.\n`);
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
          const fromPrompt = await slashCommand(context.host, line, attachments);
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
