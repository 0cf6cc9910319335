import { defineResource } from '@mcpkit/server-kit';
import { redPixelPng } from './media.js';

/** `test://static-text` (scenario resources-read-text). */
export const staticText = defineResource({
  uri: 'test://static-text',
  name: 'static-text',
  description: 'A fixed text resource.',
  mimeType: 'text/plain',
  read: () => 'This is the content of the static text resource.',
});

/** `test://static-binary` (scenario resources-read-binary). */
export const staticBinary = defineResource({
  uri: 'test://static-binary',
  name: 'static-binary',
  description: 'A fixed binary resource: a 1x1 red PNG.',
  mimeType: 'image/png',
  read: () => ({ blob: redPixelPng }),
});

/** `test://watched-resource`, the resource the subscribe scenarios subscribe to. */
export const watchedResource = defineResource({
  uri: 'test://watched-resource',
  name: 'watched-resource',
  description: 'A resource clients may subscribe to for updates.',
  mimeType: 'text/plain',
  read: () => 'The watched resource has not changed.',
});

/** `test://template/{id}/data` (scenario resources-templates-read). */
export const templateData = defineResource({
  template: 'test://template/{id}/data',
  name: 'template-data',
  description: 'JSON data for any id.',
  mimeType: 'application/json',
  read: (_uri, { id }) => {
    const value = Array.isArray(id) ? id.join(',') : (id ?? '');
    return JSON.stringify({ id: value, templateTest: true, data: `Data for ID: ${value}` });
  },
  complete: {
    id: (value) => ['1', '2', '3', '123'].filter((candidate) => candidate.startsWith(value)),
  },
});
