/** What an element is given: attributes (set as attributes, never as HTML) and event handlers. */
export type Properties = Record<string, string | boolean | undefined | ((event: Event) => void)>;

/** A child: a node, or a string that becomes a text node (never parsed as HTML). */
export type Child = Node | string | undefined | false;

/**
 * Makes an element. The page builds everything this way: text from servers and the model is only ever put in text
 * nodes or attribute values, never parsed as HTML.
 */
export function element<Tag extends keyof HTMLElementTagNameMap>(
  tag: Tag,
  properties: Properties = {},
  ...children: Child[]
): HTMLElementTagNameMap[Tag] {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(properties)) {
    if (typeof value === 'function') made.addEventListener(name.replace(/^on/, ''), value);
    else if (value === true) made.setAttribute(name, '');
    else if (typeof value === 'string') made.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === undefined || child === false) continue;
    made.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return made;
}

/** The element with this id, which the page's HTML has. */
export function byId<Type extends HTMLElement = HTMLElement>(id: string): Type {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The page has no #${id}.`);
  return found as Type;
}

/** A value as indented JSON in a `pre`. */
export function jsonBlock(value: unknown): HTMLElement {
  return element('pre', { class: 'json' }, element('code', {}, JSON.stringify(value, null, 2) ?? 'undefined'));
}

/** A duration for people: 840 ms, 2.3 s. */
export function formatDuration(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}
