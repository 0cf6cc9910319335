import {
  type CacheHint,
  ProtocolErrorCode as ErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { boundedSentence, requestErrorChars } from './budget.js';
import type { RequestContext } from './context.js';
import type { ResourceBody } from './define-resource.js';
import { ToolError } from './errors.js';
import type { Logger } from './logger.js';
import type { Registry } from './registry.js';
import { RequestError } from './request-error.js';

/**
 * Reads the resource at `uri`: a fixed resource, or the first template that matches. An unknown URI and a ToolError
 * from `read` are JSON-RPC invalid params (-32602); any other error is logged and answered as an internal error.
 * With `withCacheHint` (the 2026-07-28 era only: the 2025 codec would pass the fields through), the definition's
 * `cache` goes onto the result.
 */
export async function readResource(
  registry: Registry,
  uri: string,
  context: RequestContext,
  log: Logger,
  withCacheHint = false,
): Promise<ReadResourceResult> {
  let body: ResourceBody | undefined;
  let mimeType: string | undefined;
  let cache: CacheHint | undefined;
  try {
    const fixed = registry.resources.get(uri);
    if (fixed) {
      mimeType = fixed.definition.mimeType;
      cache = fixed.definition.cache;
      body = await fixed.definition.read(context);
    } else {
      for (const template of registry.templates.values()) {
        const variables = template.matcher.match(uri);
        if (!variables) continue;
        mimeType = template.definition.mimeType;
        cache = template.definition.cache;
        body = await template.definition.read(uri, variables, context);
        break;
      }
    }
  } catch (error) {
    if (ToolError.isInstance(error)) {
      throw new RequestError(ErrorCode.InvalidParams, boundedSentence(error.message, requestErrorChars));
    }
    log.error(`Reading resource ${uri} threw an unexpected error`, error);
    throw new RequestError(ErrorCode.InternalError, `Reading ${uri} failed with an internal error.`);
  }
  // -32602 with data.uri in both eras (SEP-2164).
  if (body === undefined) throw new ResourceNotFoundError(uri);
  const contents = (Array.isArray(body) ? body : [typeof body === 'string' ? { text: body } : body]).map((content) => {
    const type = content.mimeType ?? mimeType;
    const base = { uri: content.uri ?? uri, ...(type ? { mimeType: type } : {}) };
    if ('text' in content) return { ...base, text: content.text };
    const blob = typeof content.blob === 'string' ? content.blob : Buffer.from(content.blob).toString('base64');
    return { ...base, blob };
  });
  return withCacheHint && cache ? { contents, ...cache } : { contents };
}
