import type { ToolSpec } from '../models/model.js';
import type { RegisteredTool, ToolRegistry } from '../registry/tool-registry.js';
import { ToolIndex } from './tool-index.js';

/** When the model gets `search_tools` instead of every schema: always, never, or above a number of tools. */
export type ToolSearchMode = 'always' | 'auto' | 'never';

/** The tool-search modes, as the command line spells them. */
export const toolSearchModes: readonly ToolSearchMode[] = ['always', 'auto', 'never'];

/** Under `auto`, tool search is on when the servers have more tools than this. */
export const defaultToolSearchThreshold = 40;

/** The name of the host's own search tool; registry names always hold `__`, so it never collides with one. */
export const searchToolsName = 'search_tools';

/** Most matches one search returns, and how many when the model does not say. */
const maxLimit = 20;
const defaultLimit = 5;
const maxNamedServers = 20;

/** How tools are offered to the model. */
export interface ToolSearchOptions {
  /** Default `auto`. */
  mode?: ToolSearchMode;
  /** Tools above which `auto` searches (default 40). */
  threshold?: number;
}

/** What a call of `search_tools` gave the model. */
export interface ToolSearchResult {
  text: string;
  isError: boolean;
  /** The model-facing names of the tools found (now loaded). */
  found: string[];
}

/** The first sentence of a description, on one line, at most 160 characters. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const sentence = /^(.+?[.!?])(\s|$)/.exec(flat)?.[1] ?? flat;
  return sentence.length > 160 ? `${sentence.slice(0, 159)}…` : sentence;
}

/** A registry entry as the tool the model is offered. */
export function toolSpec(entry: RegisteredTool): ToolSpec {
  return {
    name: entry.modelName,
    description: entry.definition.description ?? entry.definition.title ?? entry.tool,
    inputSchema: entry.definition.inputSchema,
  };
}

/**
 * The tools of one conversation: every tool, or (with tool search on) `search_tools`, the pinned tools and those a
 * search or a call has loaded. Loaded tools stay loaded for the conversation, so a name the model saw keeps working
 * and every tool the conversation's history calls is still listed (which providers expect).
 */
export class ToolSelection {
  private readonly loaded = new Set<string>();
  private index: { version: number; index: ToolIndex } | undefined;
  private searched = false;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly options: ToolSearchOptions = {},
  ) {}

  /**
   * Whether the model gets `search_tools` instead of every tool. Under `auto` it turns on when the registry grows past
   * the threshold, and then stays on for the conversation, whose history may hold `search_tools` calls.
   */
  get searching(): boolean {
    const mode = this.options.mode ?? 'auto';
    if (mode !== 'auto') return mode === 'always';
    this.searched ||= this.registry.size > (this.options.threshold ?? defaultToolSearchThreshold);
    return this.searched;
  }

  /** The model-facing names loaded so far in this conversation. */
  get loadedNames(): string[] {
    return [...this.loaded];
  }

  /** The tools offered with their full schema: all of them, or the pinned and loaded ones, in registry order. */
  offered(): RegisteredTool[] {
    const all = this.registry.list();
    if (!this.searching) return all;
    return all.filter((entry) => entry.pinned || this.loaded.has(entry.modelName));
  }

  /** The tool specs of the next model request. */
  specs(): ToolSpec[] {
    const specs = this.offered().map(toolSpec);
    return this.searching ? [this.searchSpec(), ...specs] : specs;
  }

  /** Whether a call is the host's own `search_tools` rather than a server's tool. */
  isSearchCall(name: string): boolean {
    return name === searchToolsName && this.searching;
  }

  /** Keeps a tool offered from now on (a tool the model called by a name it knew without searching). */
  load(modelName: string): void {
    if (this.registry.resolve(modelName)) this.loaded.add(modelName);
  }

  /** Runs a `search_tools` call: ranks the tools, loads the best matches, and says what was found. */
  search(args: Record<string, unknown>): ToolSearchResult {
    const query = typeof args.query === 'string' ? args.query.trim() : '';
    if (query === '') {
      return {
        text: 'search_tools needs a "query": a few words saying what you want to do, e.g. "create calendar event".',
        isError: true,
        found: [],
      };
    }
    const asked = typeof args.limit === 'number' && Number.isFinite(args.limit) ? Math.floor(args.limit) : undefined;
    const limit = Math.min(Math.max(asked ?? defaultLimit, 1), maxLimit);
    const matches = this.currentIndex().search(query, limit);
    if (matches.length === 0) {
      const servers = [...new Set(this.registry.list().map((entry) => entry.server))].join(', ');
      return {
        text: `No tool matches "${query}". Try other words, e.g. the object and the action (servers: ${servers}).`,
        isError: false,
        found: [],
      };
    }
    const lines = matches.map(({ entry }) => {
      this.loaded.add(entry.modelName);
      const summary = oneLine(entry.definition.description ?? entry.definition.title ?? '');
      return `- ${entry.modelName} (server ${entry.server})${summary ? `: ${summary}` : ''}`;
    });
    const heading =
      `${matches.length} tool${matches.length === 1 ? '' : 's'} found for "${query}", best first. ` +
      'They are loaded: call them by name from your next step on, with the parameters their schemas give.';
    return {
      text: `${heading}\n${lines.join('\n')}`,
      isError: false,
      found: matches.map(({ entry }) => entry.modelName),
    };
  }

  private currentIndex(): ToolIndex {
    if (this.index?.version !== this.registry.version) {
      this.index = { version: this.registry.version, index: new ToolIndex(this.registry.list()) };
    }
    return this.index.index;
  }

  /** The `search_tools` tool: its description names how many tools there are and on which servers. */
  private searchSpec(): ToolSpec {
    const entries = this.registry.list();
    const servers = [...new Set(entries.map((entry) => entry.server))];
    // Server names tell the model what kinds of tools exist; past a score of them, a count says enough.
    const named =
      servers.length > maxNamedServers
        ? `${servers.slice(0, maxNamedServers).join(', ')} and ${servers.length - maxNamedServers} more`
        : servers.join(', ');
    return {
      name: searchToolsName,
      description:
        `Finds tools by what they do. ${entries.length} tools of ${servers.length} servers (${named}) ` +
        'are available but not listed here; search with a few words (an action and an object, e.g. "create invoice"), ' +
        'and the best matches become callable on your next step with their full parameters.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you want to do, in a few words.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: maxLimit,
            description: `Most tools to return (default ${defaultLimit}).`,
          },
        },
        required: ['query'],
      },
    };
  }
}
