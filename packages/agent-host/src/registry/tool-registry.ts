import type { Tool } from '../connection/types.js';
import { matchesNameGlob } from './name-glob.js';
import { assignToolNames } from './tool-names.js';

/** A tool as the model sees it, mapped back to the server and the tool's own name. */
export interface RegisteredTool {
  /** The collision-free, provider-safe name given to the model. */
  modelName: string;
  /** The config name of the server that has the tool. */
  server: string;
  /** The tool's name on its server. */
  tool: string;
  /** The tool as the server listed it (description, input schema, annotations). */
  definition: Tool;
  /** Whether the config pins it (`tools.pin`): always offered with its full schema, even when tool search is on. */
  pinned: boolean;
}

/** A source of tools, in config order: each server's name and its current tools. */
export interface ToolSource {
  name: string;
  tools: readonly Tool[];
  /** Tool names (`*` as a wildcard) the config pins. */
  pin?: readonly string[];
}

function pinned(pins: readonly string[] | undefined, tool: string): boolean {
  return pins?.some((glob) => matchesNameGlob(glob, tool)) ?? false;
}

/** One registry over all servers' tools: model-facing names in, (server, tool) out. */
export class ToolRegistry {
  private byModelName = new Map<string, RegisteredTool>();
  private ordered: RegisteredTool[] = [];
  private changes = 0;

  /** Builds a registry from servers in config order. */
  static from(sources: ToolSource[]): ToolRegistry {
    const registry = new ToolRegistry();
    registry.rebuild(sources);
    return registry;
  }

  /** Replaces the contents, e.g. after a server's tools changed. */
  rebuild(sources: ToolSource[]): void {
    const pairs = sources.flatMap((source) =>
      source.tools.map((definition) => ({
        server: source.name,
        tool: definition.name,
        definition,
        pinned: pinned(source.pin, definition.name),
      })),
    );
    const names = assignToolNames(pairs);
    this.ordered = pairs.map((pair, index) => ({ ...pair, modelName: names[index] ?? '' }));
    this.byModelName = new Map(this.ordered.map((entry) => [entry.modelName, entry]));
    this.changes += 1;
  }

  /** Grows with every rebuild, so that what is derived from the tools (a search index) knows when to renew. */
  get version(): number {
    return this.changes;
  }

  /** Every tool, servers in config order. */
  list(): RegisteredTool[] {
    return [...this.ordered];
  }

  /** The tool a model-facing name stands for. */
  resolve(modelName: string): RegisteredTool | undefined {
    return this.byModelName.get(modelName);
  }

  /** The entry of a server's tool by its own name. */
  find(server: string, tool: string): RegisteredTool | undefined {
    return this.ordered.find((entry) => entry.server === server && entry.tool === tool);
  }

  get size(): number {
    return this.ordered.length;
  }
}
