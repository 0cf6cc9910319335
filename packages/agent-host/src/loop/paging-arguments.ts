// Parameter names (lowercase, without `_` and `-`) that page, window or narrow a tool's output.
const pagingNames = new Set([
  'cursor',
  'pagetoken',
  'nextpagetoken',
  'offset',
  'page',
  'pagesize',
  'perpage',
  'limit',
  'maxresults',
  'maxrows',
  'maxlength',
  'head',
  'tail',
  'startline',
  'endline',
  'startindex',
  'skip',
  'take',
  'after',
  'before',
  'since',
  'until',
  'range',
  'from',
  'to',
  'start',
  'end',
  'top',
]);

/** The parameters of a tool's input schema that page or window its output (`cursor`, `offset`, `head`, ...). */
export function pagingArguments(inputSchema: unknown): string[] {
  const properties = (inputSchema as { properties?: unknown } | undefined)?.properties;
  if (typeof properties !== 'object' || properties === null) return [];
  return Object.keys(properties).filter((name) => pagingNames.has(name.toLowerCase().replace(/[_-]/g, '')));
}
