import type { CatalogView } from '../protocol.js';
import { postForError } from './api.js';
import { byId, element } from './dom.js';

/** Shows why an action failed, where the person looks: the status line. */
function report(error: string | undefined): void {
  if (error) byId('status').textContent = error;
}

/** Text inputs for named values (a prompt's arguments, a template's variables), and a button that sends them. */
function valuesForm(
  names: { name: string; description?: string; required: boolean }[],
  action: string,
  onsubmit: (values: Record<string, string>) => void,
): HTMLFormElement {
  const form = element(
    'form',
    {},
    ...names.map((field) =>
      element('input', {
        name: field.name,
        placeholder: `${field.name}${field.required ? '' : ' (optional)'}`,
        'aria-label': field.description ?? field.name,
        required: field.required || undefined,
      }),
    ),
    element('button', { type: 'submit' }, action),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const values: Record<string, string> = {};
    for (const input of form.querySelectorAll('input')) if (input.value !== '') values[input.name] = input.value;
    onsubmit(values);
  });
  return form;
}

/** Lists the servers' prompts (sent as your next message) and resources (attached to it), with their forms. */
export function showCatalog(catalog: CatalogView): void {
  const items: HTMLElement[] = [];
  for (const prompt of catalog.prompts) {
    items.push(
      element(
        'div',
        { class: 'catalog-item prompt', 'data-prompt': `${prompt.server}/${prompt.name}` },
        element(
          'div',
          {},
          element('strong', {}, prompt.name),
          element('span', { class: 'muted' }, ` prompt · ${prompt.server}`),
        ),
        prompt.description ? element('small', { class: 'muted' }, prompt.description) : undefined,
        valuesForm(prompt.arguments, 'Send prompt', (values) =>
          postForError('/api/prompt', { server: prompt.server, name: prompt.name, arguments: values }).then(report),
        ),
      ),
    );
  }
  for (const resource of catalog.resources) {
    items.push(
      element(
        'div',
        { class: 'catalog-item resource', 'data-resource': resource.uri },
        element('div', { class: 'uri' }, resource.uri),
        resource.description ? element('small', { class: 'muted' }, resource.description) : undefined,
        valuesForm([], 'Attach', () =>
          postForError('/api/attach', { uri: resource.uri, server: resource.server }).then(report),
        ),
      ),
    );
  }
  for (const template of catalog.templates) {
    items.push(
      element(
        'div',
        { class: 'catalog-item template', 'data-template': template.uriTemplate },
        element('div', { class: 'uri' }, template.uriTemplate),
        template.description ? element('small', { class: 'muted' }, template.description) : undefined,
        valuesForm(
          template.variables.map((name) => ({ name, required: true })),
          'Attach',
          (values) =>
            postForError('/api/attach', { template: template.uriTemplate, values, server: template.server }).then(
              report,
            ),
        ),
      ),
    );
  }
  byId('catalog').replaceChildren(...(items.length > 0 ? items : [element('p', { class: 'muted' }, 'None.')]));
}

/** Shows what is attached to the next message. */
export function showAttachments(uris: string[]): void {
  byId('attachments').replaceChildren(...uris.map((uri) => element('li', {}, `📎 ${uri}`)));
}
