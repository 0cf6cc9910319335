import type { PageQuestion } from '../protocol.js';
import { answer } from './api.js';
import { byId, element, jsonBlock } from './dom.js';
import { formValues, schemaFields } from './schema-form.js';

const container = () => byId('questions');

function buttons(...items: HTMLButtonElement[]): HTMLElement {
  return element('div', { class: 'actions' }, ...items);
}

function button(label: string, onclick: () => void, kind = ''): HTMLButtonElement {
  return element('button', { type: 'button', class: kind, onclick }, label);
}

/** An approval: the call and its arguments, and allow once / always / deny. */
function approvalCard(question: Extract<PageQuestion, { kind: 'approval' }>): HTMLElement {
  const reply = (value: 'yes' | 'no' | 'always') => answer({ id: question.id, kind: 'approval', answer: value });
  return element(
    'section',
    { class: `question approval${question.destructive ? ' destructive' : ''}`, 'aria-label': 'Approve a tool call' },
    element(
      'p',
      {},
      element('strong', {}, `${question.server} / ${question.tool}`),
      question.destructive ? ' may change or delete things.' : ' wants to run.',
      ' Run it with these arguments?',
    ),
    jsonBlock(question.arguments),
    buttons(
      button('Allow once', () => reply('yes'), 'primary'),
      button(`Always allow ${question.tool}`, () => reply('always')),
      button('Deny', () => reply('no')),
    ),
  );
}

/** A server's form: its message, the schema as fields, and submit / decline / cancel. */
function elicitationCard(question: Extract<PageQuestion, { kind: 'elicitation' }>): HTMLElement {
  const form = element(
    'form',
    {},
    ...schemaFields(question.schema),
    buttons(
      element('button', { type: 'submit', class: 'primary' }, 'Submit'),
      button('Decline', () => answer({ id: question.id, kind: 'elicitation', action: 'decline' })),
      button('Cancel', () => answer({ id: question.id, kind: 'elicitation', action: 'cancel' })),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    answer({ id: question.id, kind: 'elicitation', action: 'accept', content: formValues(form) });
  });
  return element(
    'section',
    { class: 'question elicitation', 'aria-label': `${question.server} asks` },
    element('p', {}, element('strong', {}, question.server), ' asks: ', question.message),
    form,
  );
}

/** A sampling request: what the server would send the model, and allow / deny. */
function samplingCard(question: Extract<PageQuestion, { kind: 'sampling' }>): HTMLElement {
  const reply = (allow: boolean) => answer({ id: question.id, kind: 'sampling', allow });
  return element(
    'section',
    { class: 'question sampling', 'aria-label': 'Sampling request' },
    element(
      'p',
      {},
      element('strong', {}, question.server),
      ` wants to use the model (at most ${question.maxTokens} tokens):`,
    ),
    question.systemPrompt ? element('pre', {}, question.systemPrompt) : undefined,
    ...question.messages.map((message) => element('pre', {}, `${message.role}: ${message.text}`)),
    buttons(
      button('Allow', () => reply(true), 'primary'),
      button('Deny', () => reply(false)),
    ),
  );
}

/** Shows a question and moves the keyboard focus to its first control. */
export function showQuestion(question: PageQuestion): void {
  const card =
    question.kind === 'approval'
      ? approvalCard(question)
      : question.kind === 'elicitation'
        ? elicitationCard(question)
        : samplingCard(question);
  card.dataset.question = question.id;
  container().append(card);
  card.querySelector<HTMLElement>('input, select, button')?.focus();
  card.scrollIntoView({ block: 'nearest' });
}

/** Removes a question that was answered (here or on another page) or withdrawn. */
export function closeQuestion(id: string): void {
  for (const card of container().querySelectorAll<HTMLElement>('[data-question]')) {
    if (card.dataset.question === id) card.remove();
  }
  if (!container().querySelector('[data-question]')) byId('input').focus();
}

/** Removes every question (the page reconnected and the history is replayed). */
export function clearQuestions(): void {
  container().replaceChildren();
}
