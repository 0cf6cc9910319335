import type { RegisteredTool } from '../registry/tool-registry.js';
import { queryTerms, searchTerms } from './search-terms.js';

/** The parts of a tool that are searched, and how much a match in each counts. */
const fieldWeights = { name: 5, title: 2, parameters: 1, description: 1, server: 1 } as const;
type Field = keyof typeof fieldWeights;
const fields = Object.keys(fieldWeights) as Field[];

// The usual BM25 constants: term-frequency saturation and length normalization.
const k1 = 1.2;
const b = 0.75;

/** A tool found by a search, with its score (higher is better). */
export interface ToolMatch {
  entry: RegisteredTool;
  score: number;
}

interface IndexedTool {
  entry: RegisteredTool;
  /** Term frequencies by field. */
  terms: Record<Field, Map<string, number>>;
  lengths: Record<Field, number>;
}

function parameterNames(schema: unknown): string[] {
  const properties = (schema as { properties?: unknown } | undefined)?.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

function fieldTexts(entry: RegisteredTool): Record<Field, string> {
  return {
    name: entry.tool,
    title: entry.definition.title ?? entry.definition.annotations?.title ?? '',
    parameters: parameterNames(entry.definition.inputSchema).join(' '),
    description: entry.definition.description ?? '',
    server: entry.server,
  };
}

function frequencies(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

/**
 * A lexical index over tools: BM25F over each tool's name, title, parameter names, description and server name, with
 * weights per field. Built in memory from the registry in a few milliseconds for hundreds of tools; works offline.
 */
export class ToolIndex {
  private readonly tools: IndexedTool[];
  private readonly averageLengths: Record<Field, number>;
  private readonly documentFrequency = new Map<string, number>();

  constructor(entries: readonly RegisteredTool[]) {
    this.tools = entries.map((entry) => {
      const texts = fieldTexts(entry);
      const terms = {} as Record<Field, Map<string, number>>;
      const lengths = {} as Record<Field, number>;
      for (const field of fields) {
        const words = searchTerms(texts[field]);
        terms[field] = frequencies(words);
        lengths[field] = words.length;
      }
      return { entry, terms, lengths };
    });
    this.averageLengths = {} as Record<Field, number>;
    for (const field of fields) {
      const total = this.tools.reduce((sum, tool) => sum + tool.lengths[field], 0);
      this.averageLengths[field] = this.tools.length > 0 ? Math.max(total / this.tools.length, 1) : 1;
    }
    for (const tool of this.tools) {
      const seen = new Set(fields.flatMap((field) => [...tool.terms[field].keys()]));
      for (const term of seen) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
    }
  }

  /** How many tools the index holds. */
  get size(): number {
    return this.tools.length;
  }

  /** The best matches of a query, best first; tools that match no term of the query are left out. */
  search(query: string, limit: number): ToolMatch[] {
    const terms = queryTerms(query);
    const count = this.tools.length;
    const matches: ToolMatch[] = [];
    for (const tool of this.tools) {
      let score = 0;
      for (const term of terms) {
        const frequency = this.documentFrequency.get(term);
        if (!frequency) continue;
        // BM25F: the field-weighted, length-normalized frequency, saturated once, times the term's rarity.
        let weighted = 0;
        for (const field of fields) {
          const occurrences = tool.terms[field].get(term);
          if (!occurrences) continue;
          const normalization = 1 - b + (b * tool.lengths[field]) / this.averageLengths[field];
          weighted += (fieldWeights[field] * occurrences) / normalization;
        }
        if (weighted === 0) continue;
        const rarity = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
        score += (rarity * weighted) / (k1 + weighted);
      }
      if (score > 0) matches.push({ entry: tool.entry, score });
    }
    matches.sort((left, right) => right.score - left.score);
    return matches.slice(0, limit);
  }
}
