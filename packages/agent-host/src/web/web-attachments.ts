import type { Host } from '../host.js';
import type { ContentPart } from '../models/messages.js';
import { expandUriTemplate, templateVariables } from '../resources/uri-template.js';
import type { CatalogView } from './protocol.js';

/** What the page asks to attach: a resource by URI, or a template with its values. */
export interface AttachTarget {
  uri?: string;
  template?: string;
  values?: Record<string, string>;
  server?: string;
}

/** An object whose values are all strings (form values from the page). */
export function isStringRecord(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((entry) => typeof entry === 'string');
}

/** The page's attach request as an `AttachTarget`, or a sentence saying what is wrong with its shape. */
export function attachTargetFrom(body: unknown): AttachTarget | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'Attach needs a JSON object.';
  const { uri, template, values, server } = body as Record<string, unknown>;
  for (const [name, value] of Object.entries({ uri, template, server })) {
    if (value !== undefined && typeof value !== 'string') return `Attach's ${name} must be a string.`;
  }
  if (values !== undefined && !isStringRecord(values)) return "Attach's values must be an object of strings.";
  return {
    ...(typeof uri === 'string' ? { uri } : {}),
    ...(typeof template === 'string' ? { template } : {}),
    ...(values !== undefined ? { values } : {}),
    ...(typeof server === 'string' ? { server } : {}),
  };
}

/** The servers' prompts, resources and templates for the page. */
export function catalogView(host: Host): CatalogView {
  const catalog: CatalogView = { prompts: [], resources: [], templates: [] };
  for (const connection of host.connections) {
    const server = connection.name;
    for (const prompt of connection.prompts) {
      catalog.prompts.push({
        server,
        name: prompt.name,
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          ...(argument.description ? { description: argument.description } : {}),
          required: argument.required === true,
        })),
      });
    }
    for (const resource of connection.resources) {
      catalog.resources.push({
        server,
        uri: resource.uri,
        name: resource.name,
        ...(resource.description ? { description: resource.description } : {}),
      });
    }
    for (const template of connection.resourceTemplates) {
      catalog.templates.push({
        server,
        uriTemplate: template.uriTemplate,
        name: template.name,
        ...(template.description ? { description: template.description } : {}),
        variables: templateVariables(template.uriTemplate),
      });
    }
  }
  return catalog;
}

/**
 * Reads a resource for the next message, as `chat`'s /attach does: text contents go with the message, binary ones
 * are named. A template's missing values or an unknown URI throw with a sentence for the page.
 */
export async function readAttachment(host: Host, target: AttachTarget): Promise<{ uri: string; parts: ContentPart[] }> {
  let uri = target.uri;
  if (target.template !== undefined) {
    const values = target.values ?? {};
    const missing = templateVariables(target.template).filter((name) => !values[name]);
    if (missing.length > 0) throw new Error(`The template ${target.template} needs ${missing.join(', ')}.`);
    uri = expandUriTemplate(target.template, values);
  }
  if (!uri) throw new Error('Attach needs a resource URI or a template.');
  const read = await host.readResource(uri, target.server);
  const parts: ContentPart[] = read.contents.map((content) =>
    'text' in content
      ? { type: 'text', text: `Attached ${content.uri}:\n${content.text}` }
      : { type: 'text', text: `[binary resource ${content.uri} not attached]` },
  );
  return { uri, parts };
}
