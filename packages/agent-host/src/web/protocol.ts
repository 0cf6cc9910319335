// The messages between `mcpkit-host web` and its page. Types only: the page's own build imports this file too.

/** A server as the page shows it: never its command, environment, headers or other config. */
export interface ServerView {
  name: string;
  state: 'idle' | 'connecting' | 'ready' | 'restarting' | 'failed' | 'closed';
  /** The protocol era negotiated at the latest connect, when connected. */
  era?: 'modern' | 'legacy';
  /** The protocol revision and transport, when connected. */
  version?: string;
  transport?: string;
  tools: number;
  prompts: number;
  resources: number;
}

/** The servers' prompts, resources and resource templates, as the page lists them (names and descriptions only). */
export interface CatalogView {
  prompts: {
    server: string;
    name: string;
    description?: string;
    arguments: { name: string; description?: string; required: boolean }[];
  }[];
  resources: { server: string; uri: string; name: string; description?: string }[];
  templates: { server: string; uriTemplate: string; name: string; description?: string; variables: string[] }[];
}

/** A piece of a tool result or message as the page renders it: text (shown as text or safe Markdown) or an image. */
export type PagePart = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

/** What the loop reported, as the page gets it (the server's whole result is left out; `parts` is what the model got). */
export type PageAgentEvent =
  | { type: 'step-start'; step: number }
  | { type: 'text-delta'; step: number; text: string }
  | {
      type: 'tool-call-start';
      step: number;
      callId: string;
      name: string;
      server?: string;
      tool?: string;
      arguments: Record<string, unknown>;
    }
  | {
      type: 'tool-call-progress';
      step: number;
      callId: string;
      progress: number;
      total?: number;
      message?: string;
    }
  | {
      type: 'tool-call-end';
      step: number;
      callId: string;
      durationMs: number;
      isError: boolean;
      refused: boolean;
      parts: PagePart[];
      /** The result's structured content, when the server gave one. */
      structured?: unknown;
      /** A sentence saying what the result budget cut, when it did. */
      cutNote?: string;
    }
  | { type: 'step-end'; step: number; durationMs: number }
  | { type: 'answer'; text: string; stoppedBy: 'answer' | 'step-limit' | 'cancelled'; durationMs: number };

/** A question the host waits on the person for. */
export type PageQuestion =
  | {
      kind: 'approval';
      id: string;
      server: string;
      tool: string;
      arguments: Record<string, unknown>;
      /** The approval policy that sent the call to the person. */
      policy: string;
      /** Whether the server marked the tool destructive (an untrusted hint). */
      destructive: boolean;
    }
  | {
      kind: 'elicitation';
      id: string;
      server: string;
      message: string;
      /** A flat JSON Schema of primitive fields, as the server sent it. */
      schema: { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    }
  | {
      kind: 'sampling';
      id: string;
      server: string;
      messages: { role: string; text: string }[];
      systemPrompt?: string;
      maxTokens: number;
    };

/** An answer the page posts to `/api/answer`. */
export type PageAnswer =
  | { id: string; kind: 'approval'; answer: 'yes' | 'no' | 'always' }
  | {
      id: string;
      kind: 'elicitation';
      action: 'accept' | 'decline' | 'cancel';
      content?: Record<string, string | number | boolean | string[]>;
    }
  | { id: string; kind: 'sampling'; allow: boolean };

/** One Server-Sent Event's data, as JSON. */
export type PageMessage =
  | { type: 'hello'; model: string; running: boolean }
  | { type: 'servers'; servers: ServerView[]; tools: number }
  | { type: 'catalog'; catalog: CatalogView }
  /** What will go with the next message: resources attached so far. */
  | { type: 'attachments'; uris: string[] }
  | { type: 'user-message'; run: number; text: string; attachments: string[] }
  | { type: 'run-start'; run: number }
  | { type: 'agent'; run: number; event: PageAgentEvent }
  | { type: 'run-end'; run: number; error?: string }
  | { type: 'question'; question: PageQuestion }
  | { type: 'question-closed'; id: string; outcome: string };
