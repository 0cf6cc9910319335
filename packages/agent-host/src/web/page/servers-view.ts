import type { ServerView } from '../protocol.js';
import { byId, element } from './dom.js';

/** Shows the servers: name, state, protocol era and revision, and what each offers. */
export function showServers(servers: ServerView[], tools: number): void {
  byId('tool-count').textContent = `(${tools} tools)`;
  byId('servers').replaceChildren(
    ...servers.map((server) =>
      element(
        'li',
        { class: 'server', 'data-server': server.name },
        element('div', {}, element('strong', {}, server.name)),
        element('div', { class: `state state-${server.state}` }, server.state),
        element(
          'div',
          { class: 'muted' },
          server.era ? `${server.era} era (${server.version}, ${server.transport})` : 'not connected',
        ),
        element(
          'div',
          { class: 'muted counts' },
          `${server.tools} tools · ${server.prompts} prompts · ${server.resources} resources`,
        ),
      ),
    ),
  );
}
