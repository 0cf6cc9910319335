import { element } from './dom.js';

// A small Markdown subset rendered straight to DOM nodes: headings, paragraphs, lists, fenced code, inline code,
// bold, italic (`_` only around whole words, as in `snake_case` it is no emphasis) and links. Nothing is ever parsed
// as HTML, so markup in a server's text shows as the text it is; links keep only http(s) and mailto addresses.

const safeLink = /^(https?:|mailto:)/i;
const inlinePattern = /(`[^`]+`)|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|(?<!\w)_[^_\s][^_]*_(?!\w))|(\[[^\]]+\]\([^)\s]+\))/;

/** Inline Markdown as nodes. */
function inline(text: string): Node[] {
  const nodes: Node[] = [];
  let rest = text;
  while (rest.length > 0) {
    const match = inlinePattern.exec(rest);
    if (!match) {
      nodes.push(document.createTextNode(rest));
      break;
    }
    if (match.index > 0) nodes.push(document.createTextNode(rest.slice(0, match.index)));
    const token = match[0];
    if (match[1]) nodes.push(element('code', {}, token.slice(1, -1)));
    else if (match[2]) nodes.push(element('strong', {}, ...inline(token.slice(2, -2))));
    else if (match[3]) nodes.push(element('em', {}, ...inline(token.slice(1, -1))));
    else {
      const [, label = '', href = ''] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(token) ?? [];
      nodes.push(
        safeLink.test(href)
          ? element('a', { href, target: '_blank', rel: 'noopener noreferrer nofollow' }, label)
          : document.createTextNode(token),
      );
    }
    rest = rest.slice(match.index + token.length);
  }
  return nodes;
}

/** Markdown text as a fragment of safe nodes. */
export function renderMarkdown(text: string): HTMLElement {
  const root = element('div', { class: 'markdown' });
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  let list: HTMLElement | undefined;
  const flush = () => {
    if (paragraph.length > 0) root.append(element('p', {}, ...inline(paragraph.join(' '))));
    paragraph = [];
    list = undefined;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      while (++index < lines.length && !/^```\s*$/.test(lines[index] ?? '')) code.push(lines[index] ?? '');
      root.append(element('pre', {}, element('code', {}, code.join('\n'))));
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const bullet = /^\s*(?:[-*+]|(\d+)[.)])\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(6, (heading[1]?.length ?? 1) + 2);
      root.append(element(`h${level}` as 'h3', {}, ...inline(heading[2] ?? '')));
    } else if (bullet) {
      if (paragraph.length > 0) flush();
      const ordered = bullet[1] !== undefined;
      if (!list || (list.tagName === 'OL') !== ordered) {
        list = element(ordered ? 'ol' : 'ul');
        root.append(list);
      }
      list.append(element('li', {}, ...inline(bullet[2] ?? '')));
    } else if (line.trim() === '') flush();
    else {
      list = undefined;
      paragraph.push(line);
    }
  }
  flush();
  return root;
}
