import type { ReadResourceResult, Resource, ResourceTemplate } from '@mcpkit/agent-host';
import { defineResource, type ResourceContent, type ResourceDefinition, ToolError } from '@mcpkit/server-kit';
import type { ResourceAddresses } from './resource-address.js';

/** Reads a backend's resource by its own URI: the host's `readResource`. */
export type ReadBackend = (server: string, uri: string) => Promise<ReadResourceResult>;

/** A backend's contents with their URIs pointed back at the gateway, so that a client can read them again. */
function outwardContents(result: ReadResourceResult, server: string, addresses: ResourceAddresses): ResourceContent[] {
  return result.contents.map((content) => {
    const uri = addresses.outward(server, content.uri);
    const mimeType = content.mimeType ? { mimeType: content.mimeType } : {};
    return 'text' in content && typeof content.text === 'string'
      ? { uri, ...mimeType, text: content.text }
      : { uri, ...mimeType, blob: String((content as { blob?: unknown }).blob ?? '') };
  });
}

async function read(readBackend: ReadBackend, addresses: ResourceAddresses, uri: string) {
  const target = addresses.inward(uri);
  if (target === undefined) throw new ToolError(`No server of the gateway owns ${uri}.`);
  return outwardContents(await readBackend(target.server, target.uri), target.server, addresses);
}

/** A backend's resource at the gateway URI `<server>+<uri>`. */
export function backendResource(
  server: string,
  resource: Resource,
  readBackend: ReadBackend,
  addresses: ResourceAddresses,
): ResourceDefinition {
  const uri = addresses.outward(server, resource.uri);
  return defineResource({
    uri,
    name: resource.name,
    ...(resource.title ? { title: resource.title } : {}),
    ...(resource.description ? { description: resource.description } : {}),
    ...(resource.mimeType ? { mimeType: resource.mimeType } : {}),
    ...(resource.size !== undefined ? { size: resource.size } : {}),
    read: () => read(readBackend, addresses, uri),
  });
}

/** A backend's resource template at the gateway template `<server>+<template>`. */
export function backendTemplate(
  server: string,
  template: ResourceTemplate,
  readBackend: ReadBackend,
  addresses: ResourceAddresses,
): ResourceDefinition {
  return defineResource({
    template: addresses.outward(server, template.uriTemplate),
    name: template.name,
    ...(template.title ? { title: template.title } : {}),
    ...(template.description ? { description: template.description } : {}),
    ...(template.mimeType ? { mimeType: template.mimeType } : {}),
    read: (uri) => read(readBackend, addresses, uri),
  });
}
