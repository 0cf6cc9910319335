// The messages between `mcpkit-host web` and its page. Types only: the page's own build imports this file too, and
// this file imports (as types) only the loop's plain-data event shapes, which need no SDK or Node types.

import type {
  AnswerFields,
  StepEndFields,
  StepStartEvent,
  TextDeltaEvent,
  ToolCallEndFields,
  ToolCallProgressEvent,
  ToolCallStartEvent,
} from '../loop/agent-event-shapes.js';

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

/**
 * What the loop reported, as the page gets it: the loop's own shapes where the page gets them whole; no server or
 * tool names in progress, no token counts, and for a finished call the parts the model got rather than the server's
 * whole result.
 */
export type PageAgentEvent =
  | StepStartEvent
  | TextDeltaEvent
  | ToolCallStartEvent
  | Omit<ToolCallProgressEvent, 'name' | 'server' | 'tool'>
  | (ToolCallEndFields & {
      refused: boolean;
      parts: PagePart[];
      /** The result's structured content, when the server gave one. */
      structured?: unknown;
      /** A sentence saying what the result budget cut, when it did. */
      cutNote?: string;
    })
  | StepEndFields
  | AnswerFields;

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
