// RFC 6570 URI templates (https://www.rfc-editor.org/rfc/rfc6570), level 3, for string values: what MCP resource
// templates use (`note://notes/{name}`, `file:///{+path}`, `search://q{?query,limit}`).

interface Operator {
  first: string;
  separator: string;
  /** `;`, `?` and `&` write `name=value`. */
  named: boolean;
  /** What follows a named variable whose value is empty. */
  ifEmpty: string;
  /** `+` and `#` keep reserved characters such as `/` as they are. */
  reserved: boolean;
}

const plain = { first: '', separator: ',', named: false, ifEmpty: '', reserved: false };
const operators: Record<string, Operator> = {
  '': plain,
  '+': { ...plain, reserved: true },
  '#': { ...plain, first: '#', reserved: true },
  '.': { ...plain, first: '.', separator: '.' },
  '/': { ...plain, first: '/', separator: '/' },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

// One expression: an optional operator, then names separated by commas (a `*` or `:N` modifier is dropped).
const expression = /\{([+#./;?&]?)([^}]*)\}/g;

function parseNames(list: string): string[] {
  return list
    .split(',')
    .map((name) => name.replace(/(\*|:\d+)$/, '').trim())
    .filter((name) => name !== '');
}

function encode(value: string, reserved: boolean): string {
  const encoded = reserved ? encodeURI(value) : encodeURIComponent(value);
  return encoded.replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The variable names a template uses, in order, each once. */
export function templateVariables(template: string): string[] {
  const names = [...template.matchAll(expression)].flatMap((match) => parseNames(match[2] ?? ''));
  return [...new Set(names)];
}

/** Fills in a template; a variable without a value is left out, as the RFC says. */
export function expandUriTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(expression, (_whole, symbol: string, list: string) => {
    const operator = operators[symbol] ?? plain;
    const parts = parseNames(list)
      .filter((name) => values[name] !== undefined)
      .map((name) => {
        const value = encode(values[name] ?? '', operator.reserved);
        if (!operator.named) return value;
        return value === '' ? `${name}${operator.ifEmpty}` : `${name}=${value}`;
      });
    return parts.length === 0 ? '' : operator.first + parts.join(operator.separator);
  });
}

/** The literal start of a template, before its first expression: the part every URI it makes begins with. */
export function templatePrefix(template: string): string {
  const brace = template.indexOf('{');
  return brace === -1 ? template : template.slice(0, brace);
}
