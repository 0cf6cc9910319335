export type { AuthIdentity } from './auth/identity.js';
export type { ResourceServerOptions } from './auth/resource-server.js';
export type { BudgetedText } from './budget.js';
export { budgetText, cutAtBoundary, truncationNote } from './budget.js';
export type {
  AskOptions,
  ClientInfo,
  CreateMessageRequestParamsBase,
  CreateMessageResult,
  ElicitOutcome,
  PromptContext,
  RequestContext,
  Root,
  SampleRequest,
  ToolContext,
} from './context.js';
export type { CacheableMethod, KitServer, OfferNotifier, ServerOptions } from './create-server.js';
export { createServer } from './create-server.js';
export type { AnyPrompt, GetPromptResult, PromptDefinition, PromptMessage } from './define-prompt.js';
export { definePrompt } from './define-prompt.js';
export type {
  Completer,
  ResourceBody,
  ResourceContent,
  ResourceDefinition,
  ResourceListing,
  StaticResourceDefinition,
  TemplateResourceDefinition,
} from './define-resource.js';
export { defineResource } from './define-resource.js';
export type { AnyTool, ToolAnnotations, ToolDefinition } from './define-tool.js';
export { defineTool } from './define-tool.js';
export type { KitErrorCode } from './errors.js';
export { errorMessage, KitError, ToolError } from './errors.js';
export type { GlobOptions } from './glob/compile-glob.js';
export { assertGlob, compileGlob } from './glob/compile-glob.js';
export type { Logger, LogLevel } from './logger.js';
export type { AuditOptions, AuditRecord } from './middleware/audit.js';
export { audit } from './middleware/audit.js';
export type {
  Caller,
  Middleware,
  MiddlewareDefinition,
  MiddlewareMethod,
  MiddlewareRequest,
  Next,
} from './middleware/middleware.js';
export type { Outcome } from './middleware/outcome.js';
export { outcomeOf } from './middleware/outcome.js';
export type { RateLimitOptions } from './middleware/rate-limit.js';
export { rateLimit } from './middleware/rate-limit.js';
export type { RefuseOptions } from './middleware/refuse.js';
export { refuse } from './middleware/refuse.js';
export type { TimingMiddleware, TimingStats } from './middleware/timing.js';
export { timing } from './middleware/timing.js';
export type { ToolRules } from './middleware/tool-access.js';
export { allowTools, denyTools } from './middleware/tool-access.js';
export type { OffThreadOptions, OffThreadTask, WorkerPool, WorkerPoolOptions } from './off-thread/worker-pool.js';
export { createWorkerPool, runOffThread } from './off-thread/worker-pool.js';
export type { Page } from './pagination.js';
export { decodeCursor, encodeCursor, paginate } from './pagination.js';
export type { CallToolResult, ContentBlock, ToolReturn } from './results.js';
export {
  audio,
  combine,
  embeddedResource,
  errorResult,
  image,
  json,
  type PreRenderedResult,
  preRendered,
  resourceLink,
  text,
} from './results.js';
export type { ConnectionGateOptions } from './transports/connection-gate.js';
export type { HttpListening, HttpOptions } from './transports/serve-http.js';
export { serveHttp } from './transports/serve-http.js';
export type { StdioOptions } from './transports/serve-stdio.js';
export { serveStdio } from './transports/serve-stdio.js';
