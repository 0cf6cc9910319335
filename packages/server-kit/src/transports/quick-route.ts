/** The `_meta` key whose presence claims the 2026-07-28 per-request envelope (the SDK's `PROTOCOL_VERSION_META_KEY`). */
const envelopeClaimKey = 'io.modelcontextprotocol/protocolVersion';
/** The first revision of the modern era; revisions are dates, so later ones sort after it. */
const firstModernRevision = '2026-07-28';
const revisionPattern = /^\d{4}-\d{2}-\d{2}$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The era a POSTed request goes to when the answer needs no schema: `modern` for a request or notification that
 * claims the 2026-07-28 envelope (the modern handler checks it and answers what is malformed), `legacy` for a
 * well-formed JSON-RPC request or notification without a claim and without a modern protocol header. Anything else
 * (initialize, batches, posted responses, other methods, malformed bodies) is `undefined`: ask the SDK's
 * `classifyInboundRequest`, whose routing this agrees with on every input it answers.
 * `isMessage` is the SDK's own check that a body is a JSON-RPC request or notification.
 */
export function quickRoute(
  httpMethod: string | undefined,
  body: unknown,
  protocolVersionHeader: string | undefined,
  isMessage: (body: unknown) => boolean,
): 'modern' | 'legacy' | undefined {
  if (httpMethod !== 'POST' || !isPlainObject(body)) return undefined;
  const method = body.method;
  // A body with `result` or `error` may classify as a posted response; initialize has rules of its own.
  if (typeof method !== 'string' || method === 'initialize' || 'result' in body || 'error' in body) return undefined;
  const params = body.params;
  const meta = isPlainObject(params) ? params._meta : undefined;
  if (isPlainObject(meta) && envelopeClaimKey in meta) return 'modern';
  // Only a plain date before the modern era counts; the SDK decides about anything else.
  const header = protocolVersionHeader;
  if (header !== undefined && !(revisionPattern.test(header) && header < firstModernRevision)) return undefined;
  return isMessage(body) ? 'legacy' : undefined;
}
