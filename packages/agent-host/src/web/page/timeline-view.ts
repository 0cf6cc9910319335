import type { PageAgentEvent, PagePart } from '../protocol.js';
import { byId, element, formatDuration, jsonBlock } from './dom.js';
import { renderMarkdown } from './markdown.js';

/** Texts longer than this are shown as plain text rather than Markdown. */
const markdownLimit = 20_000;

/** A result part as nodes: JSON text indented, other text as safe Markdown, images as images. */
function partNode(part: PagePart): Node {
  if (part.type === 'image') {
    return element('img', { src: `data:${part.mimeType};base64,${part.data}`, alt: 'image from the tool' });
  }
  const trimmed = part.text.trim();
  if (/^[[{]/.test(trimmed)) {
    try {
      return jsonBlock(JSON.parse(trimmed));
    } catch {
      // Not JSON after all: shown as text below.
    }
  }
  if (part.text.length > markdownLimit) return element('pre', {}, part.text);
  return renderMarkdown(part.text);
}

/** The timeline: one entry per step, its tool calls side by side, each with arguments, duration and result. */
export class TimelineView {
  private readonly list = byId('timeline');
  private readonly steps = new Map<string, HTMLElement>();
  private readonly calls = new Map<string, HTMLElement>();

  /** Empties the timeline (the page reconnected and the history is replayed). */
  clear(): void {
    this.list.replaceChildren();
    this.steps.clear();
    this.calls.clear();
  }

  private step(run: number, step: number): HTMLElement {
    const key = `${run}:${step}`;
    let entry = this.steps.get(key);
    if (!entry) {
      entry = element(
        'li',
        { class: 'step', 'data-run': String(run), 'data-step': String(step) },
        element(
          'header',
          {},
          element('span', {}, `Question ${run}, step ${step}`),
          element('span', { class: 'muted duration' }),
        ),
        element('div', { class: 'calls' }),
      );
      this.steps.set(key, entry);
      this.list.append(entry);
    }
    return entry;
  }

  /** Applies one loop event of a run. */
  apply(run: number, event: PageAgentEvent): void {
    if (event.type === 'step-start') this.step(run, event.step);
    else if (event.type === 'step-end') {
      const duration = this.step(run, event.step).querySelector('.duration');
      if (duration) duration.textContent = formatDuration(event.durationMs);
    } else if (event.type === 'tool-call-start') {
      const card = element(
        'article',
        { class: 'call running', 'data-call': event.callId, 'aria-busy': 'true' },
        element(
          'header',
          {},
          element('span', { class: 'call-server muted' }, event.server ?? ''),
          element('span', { class: 'tool' }, event.tool ?? event.name),
          element('span', { class: 'duration' }, 'running…'),
        ),
        element(
          'details',
          { class: 'arguments', open: true },
          element('summary', {}, 'Arguments'),
          jsonBlock(event.arguments),
        ),
        element('div', { class: 'result' }),
      );
      this.calls.set(`${run}:${event.callId}`, card);
      this.step(run, event.step).querySelector('.calls')?.append(card);
      card.scrollIntoView({ block: 'nearest' });
    } else if (event.type === 'tool-call-progress') {
      const duration = this.calls.get(`${run}:${event.callId}`)?.querySelector('.duration');
      if (duration) {
        const of = event.total !== undefined ? ` of ${event.total}` : '';
        duration.textContent = `running… ${event.progress}${of}${event.message ? ` (${event.message})` : ''}`;
      }
    } else if (event.type === 'tool-call-end') {
      const card = this.calls.get(`${run}:${event.callId}`);
      if (!card) return;
      card.classList.remove('running');
      card.removeAttribute('aria-busy');
      if (event.isError) card.classList.add('error');
      const duration = card.querySelector('.duration');
      if (duration) duration.textContent = formatDuration(event.durationMs);
      const label = event.refused ? 'refused' : event.isError ? 'error' : undefined;
      if (label) card.querySelector('header')?.append(element('span', { class: 'badge' }, label));
      card
        .querySelector('.result')
        ?.replaceChildren(
          ...event.parts.map(partNode),
          ...(event.structured !== undefined
            ? [element('details', {}, element('summary', {}, 'Structured content'), jsonBlock(event.structured))]
            : []),
          ...(event.cutNote ? [element('p', { class: 'muted' }, event.cutNote)] : []),
        );
    }
  }
}
