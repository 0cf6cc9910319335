import { ToolError } from '@mcpkit/server-kit/task';
import { describeSyntaxError, toMatchExpression } from '../local-index/search-query.js';

/** One word a query ranks by (words under NOT are left out): a prefix when it ended in `*`. */
export interface RankedTerm {
  word: string;
  prefix: boolean;
}

/** A query in PostgreSQL's `to_tsquery` syntax, its words not yet stemmed, and the words BM25 ranks by. */
export interface TextSearchQuery {
  /** For `to_tsquery('english', ...)`: quoted words, `&`, `|`, `!`, `<->`, `:*` and weights. */
  tsquery: string;
  terms: RankedTerm[];
}

/** tsquery weights of the columns a query may filter on: title A, path B, body D (as they are stored). */
const columnWeights: Record<string, string> = { title: 'A', path: 'B', body: 'D' };

type Node =
  | { kind: 'word'; word: string; prefix: boolean; weight?: string }
  | { kind: 'phrase'; words: string[]; prefix: boolean; weight?: string }
  | { kind: 'and' | 'or'; left: Node; right: Node }
  | { kind: 'not'; left: Node; right: Node };

type Token = { type: 'word' | 'string' | 'symbol'; text: string };

class QuerySyntaxError extends Error {}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < query.length) {
    const character = query[index] as string;
    if (/\s/.test(character)) {
      index++;
    } else if (character === '"') {
      let end = index + 1;
      let text = '';
      for (;;) {
        const next = query.indexOf('"', end);
        if (next < 0) throw new QuerySyntaxError('unterminated string');
        text += query.slice(end, next);
        // A doubled quote inside a string stands for one quote, as in FTS5.
        if (query[next + 1] === '"') {
          text += '"';
          end = next + 2;
          continue;
        }
        index = next + 1;
        break;
      }
      tokens.push({ type: 'string', text });
    } else if ('()*:^,'.includes(character)) {
      tokens.push({ type: 'symbol', text: character });
      index++;
    } else {
      const match = /^[\p{L}\p{N}_]+/u.exec(query.slice(index));
      if (!match) throw new QuerySyntaxError(`syntax error near "${character}"`);
      tokens.push({ type: 'word', text: match[0] });
      index += match[0].length;
    }
  }
  return tokens;
}

/** Parses the FTS5 query syntax: NOT binds tighter than AND (also implicit), AND tighter than OR. */
function parse(query: string): Node {
  const tokens = tokenize(query);
  let position = 0;
  const peek = () => tokens[position];
  const isOperator = (token: Token | undefined, operator: string) => token?.type === 'word' && token.text === operator;
  const near = () => {
    const token = peek();
    return token ? `near "${token.text}"` : 'at the end of the query';
  };

  const primary = (weight: string | undefined): Node => {
    const token = peek();
    if (!token) throw new QuerySyntaxError('a term is missing at the end of the query');
    if (token.type === 'symbol' && token.text === '^') {
      position++;
      return primary(weight);
    }
    if (token.type === 'symbol' && token.text === '(') {
      position++;
      const inner = orExpression(weight);
      if (peek()?.text !== ')') throw new QuerySyntaxError(`a closing parenthesis is missing ${near()}`);
      position++;
      return inner;
    }
    if (isOperator(token, 'NEAR') && tokens[position + 1]?.text === '(') {
      // NEAR(a b, N) has no tsquery equivalent; it is read as all of its phrases (AND).
      position += 2;
      const parts: Node[] = [];
      while (peek() && peek()?.text !== ')' && peek()?.text !== ',') parts.push(primary(weight));
      if (peek()?.text === ',') {
        position++;
        if (!/^\d+$/.test(peek()?.text ?? '')) throw new QuerySyntaxError(`a NEAR distance is expected ${near()}`);
        position++;
      }
      if (peek()?.text !== ')' || parts.length === 0) throw new QuerySyntaxError(`NEAR is not closed ${near()}`);
      position++;
      return parts.reduce((left, right) => ({ kind: 'and', left, right }));
    }
    if (token.type === 'word' && tokens[position + 1]?.text === ':') {
      const column = token.text.toLowerCase();
      const columnWeight = columnWeights[column];
      if (!columnWeight) throw new QuerySyntaxError(`no such column: ${token.text}`);
      position += 2;
      return primary(columnWeight);
    }
    if (token.type === 'string' || (token.type === 'word' && !/^(AND|OR|NOT)$/.test(token.text))) {
      position++;
      const prefix = peek()?.text === '*';
      if (prefix) position++;
      const words = Array.from(token.text.matchAll(/[\p{L}\p{N}]+/gu), (match) => match[0]);
      const base = weight ? { weight } : {};
      if (words.length === 1) return { kind: 'word', word: words[0] as string, prefix, ...base };
      return { kind: 'phrase', words, prefix, ...base };
    }
    throw new QuerySyntaxError(`syntax error ${near()}`);
  };
  const notExpression = (weight: string | undefined): Node => {
    let left = primary(weight);
    while (isOperator(peek(), 'NOT')) {
      position++;
      left = { kind: 'not', left, right: primary(weight) };
    }
    return left;
  };
  const andExpression = (weight: string | undefined): Node => {
    let left = notExpression(weight);
    for (;;) {
      const token = peek();
      if (!token || isOperator(token, 'OR') || token.text === ')') return left;
      if (isOperator(token, 'AND')) position++;
      left = { kind: 'and', left, right: notExpression(weight) };
    }
  };
  const orExpression = (weight: string | undefined): Node => {
    let left = andExpression(weight);
    while (isOperator(peek(), 'OR')) {
      position++;
      left = { kind: 'or', left, right: andExpression(weight) };
    }
    return left;
  };
  const tree = orExpression(undefined);
  if (position < tokens.length) throw new QuerySyntaxError(`syntax error ${near()}`);
  return tree;
}

/** A word as a tsquery operand: quoted, so nothing in it is syntax; `to_tsquery` stems it as the index did. */
function operand(word: string, prefix: boolean, weight: string | undefined): string {
  const suffix = prefix || weight ? `:${prefix ? '*' : ''}${weight ?? ''}` : '';
  return `'${word.replace(/['\\]/g, '\\$&')}'${suffix}`;
}

function emit(node: Node, terms: RankedTerm[], negated: boolean): string {
  switch (node.kind) {
    case 'word':
      if (!negated) terms.push({ word: node.word, prefix: node.prefix });
      return operand(node.word, node.prefix, node.weight);
    case 'phrase': {
      const last = node.words.length - 1;
      const parts = node.words.map((word, index) => {
        if (!negated) terms.push({ word, prefix: node.prefix && index === last });
        return operand(word, node.prefix && index === last, node.weight);
      });
      return `(${parts.join(' <-> ')})`;
    }
    case 'and':
      return `(${emit(node.left, terms, negated)} & ${emit(node.right, terms, negated)})`;
    case 'or':
      return `(${emit(node.left, terms, negated)} | ${emit(node.right, terms, negated)})`;
    case 'not':
      return `(${emit(node.left, terms, negated)} & !${emit(node.right, terms, !negated)})`;
  }
}

/**
 * Reads a `search` query for PostgreSQL with the same language as the SQLite index (ADR 0301): plain words become
 * an OR of the meaningful words; FTS5 syntax (quotes, `*`, AND/OR/NOT, parentheses, `title:`/`path:`/`body:`) is
 * translated to `to_tsquery` syntax, and a syntax error is a ToolError with the same sentence.
 */
export function toTextSearchQuery(query: string): TextSearchQuery {
  const expression = toMatchExpression(query);
  let tree: Node;
  try {
    tree = parse(expression);
  } catch (error) {
    if (error instanceof QuerySyntaxError) throw describeSyntaxError(query, error);
    throw error;
  }
  const terms: RankedTerm[] = [];
  const tsquery = emit(tree, terms, false);
  if (tsquery.length > 20_000) throw new ToolError('The search query is too long; use fewer words.');
  return { tsquery, terms };
}
