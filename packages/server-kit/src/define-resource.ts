import type { CacheHint, Resource, ResourceTemplateType as ResourceTemplate } from '@modelcontextprotocol/server';
import type { RequestContext } from './context.js';
import { KitError } from './errors.js';
import type { Middleware } from './middleware/middleware.js';

type MaybePromise<T> = T | Promise<T>;

/** One piece of a resource's contents: text, or binary given as bytes or base64. */
export type ResourceContent =
  | { uri?: string; mimeType?: string; text: string }
  | { uri?: string; mimeType?: string; blob: string | Uint8Array };

/** What a `read` returns: a string (text with the resource's mime type), one content, or several. */
export type ResourceBody = string | ResourceContent | ResourceContent[];

/** A resource listed by a template's `list`. */
export type ResourceListing = Omit<Resource, 'uri'> & { uri: string };

/** Suggests completions for one argument or template variable from what the user typed so far. */
export type Completer = (value: string, context: { arguments: Record<string, string> }) => MaybePromise<string[]>;

interface ResourceCommon {
  /** A short identifier for the resource. */
  name: string;
  /** A human-friendly name for UIs. */
  title?: string;
  /** What the resource holds, for the model and the user. */
  description?: string;
  /** The mime type of the contents, when there is one. */
  mimeType?: string;
  /** Audience and priority hints. */
  annotations?: Resource['annotations'];
  /**
   * How long a 2026-07-28 client may reuse what `read` returned (`ttlMs`, `cacheScope`), overriding the server's
   * `cache['resources/read']`; without either, a read is marked `ttlMs: 0, cacheScope: 'private'`.
   */
  cache?: CacheHint;
  /**
   * Middleware around the calls of this resource or template only, run inside the server's (`createServer({ middleware })`), first
   * outermost: its resources/read requests and, for a template, the completions of its variables.
   */
  middleware?: readonly Middleware[];
}

/** A resource at one fixed URI. */
export interface StaticResourceDefinition extends ResourceCommon {
  uri: string;
  template?: never;
  /** Size in bytes when known, shown in resources/list. */
  size?: number;
  read(context: RequestContext): MaybePromise<ResourceBody>;
}

/** A family of resources under an RFC 6570 URI template such as `db://tables/{name}`. */
export interface TemplateResourceDefinition extends ResourceCommon {
  template: string;
  uri?: never;
  /** Reads one resource; throw ToolError for a URI that matches the template but names nothing. */
  read(uri: string, variables: Record<string, string | string[]>, context: RequestContext): MaybePromise<ResourceBody>;
  /** Lists the concrete resources of the template, for resources/list. */
  list?(context: RequestContext): MaybePromise<ResourceListing[]>;
  /** Completions for the template's variables, by variable name. */
  complete?: Record<string, Completer>;
}

export type ResourceDefinition = StaticResourceDefinition | TemplateResourceDefinition;

export type { Resource, ResourceTemplate };

/** Declares a resource or a resource template. Returns its argument, typed; checks it at definition time. */
export function defineResource<Definition extends ResourceDefinition>(definition: Definition): Definition {
  const hasUri = typeof definition.uri === 'string';
  const hasTemplate = typeof definition.template === 'string';
  if (hasUri === hasTemplate) {
    throw new KitError(
      'INVALID_DEFINITION',
      `Resource "${definition.name}" needs exactly one of uri (a fixed resource) or template (a family of resources).`,
    );
  }
  const address = (definition.uri ?? definition.template) as string;
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(address)) {
    throw new KitError(
      'INVALID_DEFINITION',
      `Resource "${definition.name}" has ${JSON.stringify(address)}, which has no URI scheme.`,
    );
  }
  if (definition.cache !== undefined) assertCacheHint(definition.name, definition.cache);
  return definition;
}

function assertCacheHint(name: string, hint: CacheHint): void {
  const { ttlMs, cacheScope } = hint;
  if (ttlMs !== undefined && !(Number.isSafeInteger(ttlMs) && ttlMs >= 0)) {
    throw new KitError(
      'INVALID_DEFINITION',
      `Resource "${name}" has cache.ttlMs ${String(ttlMs)}; it must be a whole number of milliseconds, 0 or more.`,
    );
  }
  if (cacheScope !== undefined && cacheScope !== 'public' && cacheScope !== 'private') {
    throw new KitError(
      'INVALID_DEFINITION',
      `Resource "${name}" has cache.cacheScope ${JSON.stringify(cacheScope)}; it must be "public" or "private".`,
    );
  }
}
