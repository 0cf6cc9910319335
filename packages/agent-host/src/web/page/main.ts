import type { PageMessage } from '../protocol.js';
import { events, post } from './api.js';
import { showAttachments, showCatalog } from './catalog-view.js';
import { ConversationView } from './conversation-view.js';
import { byId } from './dom.js';
import { clearQuestions, closeQuestion, showQuestion } from './question-views.js';
import { showServers } from './servers-view.js';
import { TimelineView } from './timeline-view.js';

// The page of `mcpkit-host web`: everything it shows comes from the host's event stream; the person's actions are
// posted back. Keyboard: Enter sends, Shift+Enter adds a line, Escape stops the run.

const conversation = new ConversationView();
const timeline = new TimelineView();
const status = byId('status');
const stop = byId<HTMLButtonElement>('stop');
const input = byId<HTMLTextAreaElement>('input');
const composer = byId<HTMLFormElement>('composer');
let running = false;

function setRunning(value: boolean): void {
  running = value;
  stop.disabled = !value;
  status.textContent = value ? 'Running…' : 'Ready';
  document.body.dataset.running = String(value);
}

function receive(message: PageMessage): void {
  switch (message.type) {
    case 'hello':
      // A fresh stream replays the whole session after this message.
      conversation.clear();
      timeline.clear();
      clearQuestions();
      showAttachments([]);
      byId('model').textContent = message.model;
      setRunning(message.running);
      break;
    case 'servers':
      showServers(message.servers, message.tools);
      break;
    case 'catalog':
      showCatalog(message.catalog);
      break;
    case 'attachments':
      showAttachments(message.uris);
      break;
    case 'user-message':
      conversation.user(message.text, message.attachments);
      break;
    case 'run-start':
      setRunning(true);
      break;
    case 'run-end':
      if (message.error) conversation.error(message.error);
      setRunning(false);
      break;
    case 'agent': {
      const event = message.event;
      if (event.type === 'text-delta') conversation.delta(event.step, event.text);
      else if (event.type === 'answer') conversation.answer(event.text, event.stoppedBy);
      else timeline.apply(message.run, event);
      break;
    }
    case 'question':
      showQuestion(message.question);
      break;
    case 'question-closed':
      closeQuestion(message.id);
      break;
  }
}

const stream = events();
stream.addEventListener('message', (event) => receive(JSON.parse((event as MessageEvent<string>).data) as PageMessage));
stream.addEventListener('error', () => {
  status.textContent = stream.readyState === EventSource.CLOSED ? 'Disconnected' : 'Reconnecting…';
});

composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text || running) return;
  input.value = '';
  void post('/api/message', { text });
});
input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    composer.requestSubmit();
  }
});
stop.addEventListener('click', () => void post('/api/stop'));
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && running) void post('/api/stop');
});
input.focus();
