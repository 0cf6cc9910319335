// Words that say nothing about which tool is meant; they would only add noise to every score.
const stopWords = new Set(
  'a an and are as at be by can do for from get has have i in into is it its me my of on or so that the their them this to use using want we what when which will with you your'.split(
    ' ',
  ),
);

/**
 * A crude English stemmer, the same on both sides of a match: plural and verb endings, then a final `e`, so that
 * "create", "creates", "created" and "creating" meet, as do "issue" and "issues", "query" and "queries".
 */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  let base = word;
  if (base.endsWith('ies') && base.length > 4) base = `${base.slice(0, -3)}y`;
  else if (/(ss|x|z|ch|sh)es$/.test(base)) base = base.slice(0, -2);
  else if (base.endsWith('ing') && base.length > 5) base = base.slice(0, -3);
  else if (base.endsWith('ed') && base.length > 4) base = base.slice(0, -2);
  else if (base.endsWith('s') && !/(ss|us|is)$/.test(base)) base = base.slice(0, -1);
  if (base.endsWith('e') && base.length > 3) base = base.slice(0, -1);
  return base;
}

/**
 * The search terms of a text: identifiers split at `_`, `-`, `.`, `/` and camelCase humps, lowercased, stop words
 * dropped, stemmed. Works on names ("readTextFile", "read_text_file") and prose alike.
 */
export function searchTerms(text: string): string[] {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u);
  const terms: string[] = [];
  for (const word of words) {
    if (word === '' || stopWords.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}

// The action words people use for the verbs tool names use most, by stem: a query for "open a pull request" also
// looks for "create", one for "find" also for "search". Only queries are expanded; the original word stays.
const actionSynonyms: Record<string, string[]> = {
  add: ['creat'],
  new: ['creat'],
  mak: ['creat'],
  open: ['creat'],
  send: ['creat'],
  post: ['creat'],
  schedul: ['creat'],
  book: ['creat'],
  invit: ['creat'],
  writ: ['creat', 'updat'],
  edit: ['updat'],
  chang: ['updat'],
  modify: ['updat'],
  renam: ['updat'],
  set: ['updat'],
  remov: ['delet'],
  drop: ['delet'],
  eras: ['delet'],
  cancel: ['delet'],
  find: ['search'],
  look: ['search'],
  show: ['get', 'list'],
  read: ['get'],
  fetch: ['get'],
  view: ['get'],
};

/** The terms of a search query: its own terms, then the verbs its action words usually mean. */
export function queryTerms(text: string): string[] {
  const terms = searchTerms(text);
  return [...new Set([...terms, ...terms.flatMap((term) => actionSynonyms[term] ?? [])])];
}
