import { errorMessage } from '../errors.js';
import type { Host } from '../host.js';
import type { Agent } from '../loop/agent.js';
import { contentBlockParts } from '../loop/tool-content.js';
import { type ContentPart, partsText } from '../models/messages.js';
import type { EventStream } from './event-stream.js';
import { pageEvent } from './page-events.js';
import type { PendingQuestions } from './pending-questions.js';
import type { PageMessage, ServerView } from './protocol.js';
import { type AttachTarget, catalogView, readAttachment } from './web-attachments.js';

/** What a web session is made of. */
export interface WebSessionOptions {
  host: Host;
  agent: Agent;
  stream: EventStream;
  questions: PendingQuestions;
  /** The model's name as `provider:model`, shown on the page. */
  modelName: string;
}

/** The servers as the page shows them: names, states, protocols and counts, never their config. */
export function serverViews(host: Host): ServerView[] {
  return host.connections.map((connection) => {
    const protocol = connection.protocol;
    return {
      name: connection.name,
      state: connection.state,
      ...(protocol ? { era: protocol.era, version: protocol.version, transport: protocol.transport } : {}),
      tools: connection.tools.length,
      prompts: connection.prompts.length,
      resources: connection.resources.length + connection.resourceTemplates.length,
    };
  });
}

/** One conversation of the web page: runs one question at a time and tells every open page what happens. */
export class WebSession {
  private running: { run: number; controller: AbortController } | undefined;
  private runs = 0;
  private readonly unsubscribe: Array<() => void> = [];
  /** Resources attached to the next message. */
  private attachments: { uri: string; parts: ContentPart[] }[] = [];

  constructor(private readonly options: WebSessionOptions) {
    const { agent, host, stream } = options;
    this.unsubscribe.push(
      agent.subscribe((event) => {
        const page = pageEvent(event);
        if (page && this.running) stream.send({ type: 'agent', run: this.running.run, event: page });
      }),
      host.onRegistryChange(() => {
        stream.send(this.serversMessage(), false);
        stream.send({ type: 'catalog', catalog: catalogView(host) }, false);
      }),
    );
  }

  /** What a page gets first: the model, whether a run is going on, and the servers now. */
  greeting(): PageMessage[] {
    return [
      { type: 'hello', model: this.options.modelName, running: this.running !== undefined },
      this.serversMessage(),
      { type: 'catalog', catalog: catalogView(this.options.host) },
    ];
  }

  private serversMessage(): PageMessage {
    return { type: 'servers', servers: serverViews(this.options.host), tools: this.options.host.registry.size };
  }

  /** Reads a resource (or a template's) and attaches it to the next message; throws when it cannot be read. */
  async attach(target: AttachTarget): Promise<void> {
    const attachment = await readAttachment(this.options.host, target);
    this.attachments.push(attachment);
    this.options.stream.send({ type: 'attachments', uris: this.attachments.map((each) => each.uri) });
  }

  /** Sends a server's prompt, its arguments filled in, as the person's next message; false when a run goes on. */
  async usePrompt(server: string, name: string, values: Record<string, string>): Promise<boolean> {
    const connection = this.options.host.connection(server);
    if (!connection) throw new Error(`There is no server "${server}".`);
    // Asked only when the message can go: a prompt a run would refuse is not fetched from the server for nothing.
    if (this.running) return false;
    const prompt = await connection.getPrompt(name, values);
    return this.send(contentBlockParts(prompt.messages.map((message) => message.content)));
  }

  /** Starts a run with the person's message and the attachments; false when one is already going on. */
  send(input: string | ContentPart[]): boolean {
    if (this.running) return false;
    const { agent, stream } = this.options;
    const run = ++this.runs;
    const controller = new AbortController();
    this.running = { run, controller };
    const parts: ContentPart[] = typeof input === 'string' ? [{ type: 'text', text: input }] : input;
    const attached = this.attachments.splice(0);
    const uris = attached.map((each) => each.uri);
    stream.send({ type: 'user-message', run, text: partsText(parts), attachments: uris });
    if (attached.length > 0) stream.send({ type: 'attachments', uris: [] });
    stream.send({ type: 'run-start', run });
    agent
      .run([...attached.flatMap((each) => each.parts), ...parts], { signal: controller.signal })
      .then(
        () => stream.send({ type: 'run-end', run }),
        (error: unknown) => stream.send({ type: 'run-end', run, error: errorMessage(error) }),
      )
      .finally(() => {
        this.running = undefined;
        // Server states may have changed during the run (a crash, a restart).
        stream.send(this.serversMessage(), false);
      });
    return true;
  }

  /** Cancels the run going on (servers get `notifications/cancelled`) and withdraws its open questions. */
  stop(): boolean {
    if (!this.running) return false;
    this.running.controller.abort();
    this.options.questions.withdrawAll();
    return true;
  }

  /** Stops listening to the agent and the host. */
  close(): void {
    this.stop();
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }
}
