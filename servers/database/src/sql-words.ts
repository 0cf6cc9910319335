/** One significant token of a statement: a word (upper-cased), or a punctuation character. */
export interface SqlToken {
  /** A keyword or bare identifier upper-cased, a quoted identifier's name as written, or one punctuation character. */
  value: string;
  kind: 'word' | 'quoted' | 'string' | 'punctuation' | 'parameter' | 'number';
  /** Parenthesis depth at the token (0 at the statement's top level). */
  depth: number;
  /** Offset of the token in the statement. */
  offset: number;
}

const wordStart = /[A-Za-z_\u0080-\uffff]/;
const wordPart = /[A-Za-z0-9_$\u0080-\uffff]/;

/** The end of a `/* ... *\/` comment that starts at `start` (SQLite: comments do not nest). */
function skipComment(sql: string, start: number): number {
  const end = sql.indexOf('*/', start + 2);
  return end === -1 ? sql.length : end + 2;
}

/** The end of a PostgreSQL comment that starts at `start`: `/* ... *\/` comments nest there. */
function skipNestedComment(sql: string, start: number): number {
  let depth = 0;
  let position = start;
  while (position < sql.length) {
    if (sql[position] === '/' && sql[position + 1] === '*') {
      depth += 1;
      position += 2;
    } else if (sql[position] === '*' && sql[position + 1] === '/') {
      depth -= 1;
      position += 2;
      if (depth === 0) return position;
    } else {
      position += 1;
    }
  }
  return sql.length;
}

/** The end of a PostgreSQL E'...' string whose quote is at `quote`: a backslash escapes the next character. */
function skipEscapeString(sql: string, quote: number): number {
  let position = quote + 1;
  while (position < sql.length) {
    const character = sql[position];
    if (character === '\\') position += 2;
    else if (character === "'" && sql[position + 1] === "'") position += 2;
    else if (character === "'") return position + 1;
    else position += 1;
  }
  return sql.length;
}

/**
 * Splits a statement into tokens, skipping comments and keeping string literals and quoted identifiers whole, so
 * that the rules in statement-safety.ts never mistake text inside a string or comment for a keyword. With
 * `dollarQuotes` (PostgreSQL), `$tag$ ... $tag$` bodies are strings too.
 */
export function sqlTokens(sql: string, options: { dollarQuotes?: boolean } = {}): SqlToken[] {
  const tokens: SqlToken[] = [];
  let depth = 0;
  let index = 0;
  const length = sql.length;
  const skipQuoted = (close: string, start: number): number => {
    let position = start + 1;
    while (position < length) {
      if (sql[position] === close) {
        // A doubled quote is an escaped quote inside the literal.
        if (sql[position + 1] === close && close !== ']') {
          position += 2;
          continue;
        }
        return position + 1;
      }
      position += 1;
    }
    return length;
  };
  while (index < length) {
    const character = sql[index] as string;
    if (/\s/.test(character)) {
      index += 1;
    } else if (character === '-' && sql[index + 1] === '-') {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? length : end + 1;
    } else if (character === '/' && sql[index + 1] === '*') {
      index = options.dollarQuotes ? skipNestedComment(sql, index) : skipComment(sql, index);
    } else if (character === "'") {
      const end = skipQuoted("'", index);
      tokens.push({ value: sql.slice(index + 1, end - 1), kind: 'string', depth, offset: index });
      index = end;
    } else if (character === '"' || character === '`' || character === '[') {
      const end = skipQuoted(character === '[' ? ']' : character, index);
      tokens.push({ value: sql.slice(index + 1, end - 1), kind: 'quoted', depth, offset: index });
      index = end;
    } else if (character === '$' && options.dollarQuotes && /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.test(sql.slice(index))) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(index))?.[0] as string;
      const end = sql.indexOf(tag, index + tag.length);
      const stop = end === -1 ? length : end + tag.length;
      tokens.push({
        value: sql.slice(index + tag.length, end === -1 ? length : end),
        kind: 'string',
        depth,
        offset: index,
      });
      index = stop;
    } else if ('?:@$'.includes(character) && index + 1 <= length) {
      let end = index + 1;
      while (end < length && wordPart.test(sql[end] as string)) end += 1;
      if (end === index + 1 && character === ':') {
        tokens.push({ value: ':', kind: 'punctuation', depth, offset: index });
      } else {
        tokens.push({ value: sql.slice(index, end), kind: 'parameter', depth, offset: index });
      }
      index = end;
    } else if (options.dollarQuotes && /[Ee]/.test(character) && sql[index + 1] === "'") {
      // PostgreSQL's E'...' strings take backslash escapes: \' does not end them.
      const end = skipEscapeString(sql, index + 1);
      tokens.push({ value: sql.slice(index + 2, end - 1), kind: 'string', depth, offset: index });
      index = end;
    } else if (
      options.dollarQuotes &&
      /[Uu]/.test(character) &&
      sql[index + 1] === '&' &&
      /["']/.test(sql[index + 2] ?? '')
    ) {
      // U&"..." spells names with escapes the checks cannot read; statement-safety.ts refuses this token.
      tokens.push({ value: 'U&', kind: 'word', depth, offset: index });
      index += 2;
    } else if (wordStart.test(character)) {
      let end = index + 1;
      while (end < length && wordPart.test(sql[end] as string)) end += 1;
      tokens.push({ value: sql.slice(index, end).toUpperCase(), kind: 'word', depth, offset: index });
      index = end;
    } else if (/[0-9.]/.test(character) && /[0-9]/.test(sql[index + 1] ?? character)) {
      let end = index + 1;
      while (end < length && /[0-9A-Za-z_.]/.test(sql[end] as string)) end += 1;
      tokens.push({ value: sql.slice(index, end), kind: 'number', depth, offset: index });
      index = end;
    } else {
      if (character === ')') depth = Math.max(0, depth - 1);
      tokens.push({ value: character, kind: 'punctuation', depth, offset: index });
      if (character === '(') depth += 1;
      index += 1;
    }
  }
  return tokens;
}
