import { byId, element } from './dom.js';
import { renderMarkdown } from './markdown.js';

/** The chat: the person's messages, and the model's text streamed in, shown as safe Markdown once complete. */
export class ConversationView {
  private readonly list = byId('messages');
  /** The model's bubbles of the current run by step, with the raw text streamed so far. */
  private bubbles = new Map<number, { node: HTMLElement; text: string }>();

  /** Empties the chat (the page reconnected and the history is replayed). */
  clear(): void {
    this.list.replaceChildren();
    this.bubbles.clear();
  }

  private add(node: HTMLElement): HTMLElement {
    this.list.append(element('li', {}, node));
    node.scrollIntoView({ block: 'end' });
    return node;
  }

  /** Shows what the person asked, with what was attached, and starts a new run's bubbles. */
  user(text: string, attachments: string[] = []): void {
    this.bubbles = new Map();
    this.add(
      element(
        'div',
        { class: 'message user' },
        text,
        ...attachments.map((uri) => element('span', { class: 'attachment' }, `📎 ${uri}`)),
      ),
    );
  }

  /** Adds streamed text of a step to its bubble. */
  delta(step: number, text: string): void {
    let bubble = this.bubbles.get(step);
    if (!bubble) {
      bubble = { node: this.add(element('div', { class: 'message assistant streaming' })), text: '' };
      this.bubbles.set(step, bubble);
    }
    bubble.text += text;
    bubble.node.textContent = bubble.text;
  }

  /** Shows the final answer as Markdown: in the bubble that streamed it, or in a new one. */
  answer(text: string, stoppedBy: string): void {
    const last = [...this.bubbles.values()].at(-1);
    const node = last && last.text === text ? last.node : this.add(element('div', { class: 'message assistant' }));
    node.classList.remove('streaming');
    if (text) node.replaceChildren(renderMarkdown(text));
    else
      node.replaceChildren(element('em', { class: 'muted' }, stoppedBy === 'cancelled' ? 'Stopped.' : '(no answer)'));
    if (stoppedBy === 'cancelled' && text) node.append(element('em', { class: 'muted' }, ' (stopped)'));
    // Other bubbles of the run were said before tool calls: they are complete too.
    for (const bubble of this.bubbles.values()) {
      if (bubble.node !== node) bubble.node.replaceChildren(renderMarkdown(bubble.text));
      bubble.node.classList.remove('streaming');
    }
  }

  /** Shows why a run failed. */
  error(message: string): void {
    this.add(element('div', { class: 'message assistant error', role: 'alert' }, message));
  }
}
