export type {
  ApprovalAnswer,
  ApprovalDecision,
  ApprovalHandlerOptions,
  ApprovalRequest,
  ApproveToolCall,
} from './approvals/approval-handler.js';
export { approvalHandler } from './approvals/approval-handler.js';
export type { ApprovalPolicy, ApprovalRules, ServerApproval, ToolHints } from './approvals/approval-policy.js';
export { claudeDesktopConfigPath, defaultConfigPaths, findConfigFile, loadConfigFile } from './config/load-config.js';
export type { ConfigInput, ParseConfigOptions } from './config/parse-config.js';
export { parseConfig } from './config/parse-config.js';
export type {
  ConfigProblem,
  HostConfig,
  OAuthSettings,
  ServerConfig,
  ServerTransportConfig,
  ToolFilter,
} from './config/server-config.js';
export type {
  ElicitationAnswer,
  ElicitationRequest,
  RootEntry,
  SamplingMessage,
  SamplingRequest,
} from './connection/client-requests.js';
export { type OpenAuthorizationPage, openInBrowser } from './connection/oauth/authorization-page.js';
export type { ConnectionAuthorization } from './connection/oauth/connection-authorization.js';
export type { InteractiveSignIn } from './connection/oauth/host-oauth-provider.js';
export { defaultTokenFile, TokenStore } from './connection/oauth/token-store.js';
export type { RestartPolicy } from './connection/restart-policy.js';
export type { ConnectionState, ServerInfo } from './connection/server-connection.js';
export { ServerConnection } from './connection/server-connection.js';
export type { CallOptions, ToolProgress } from './connection/tool-call.js';
export type {
  CallToolResult,
  ContentBlock,
  NegotiatedProtocol,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerLogSink,
  Tool,
} from './connection/types.js';
export type { HostErrorCode } from './errors.js';
export { HostError } from './errors.js';
export type { Host, HostOptions, ServerFailure } from './host.js';
export { connectHost } from './host.js';
export type { AgentOptions, RunOptions, RunResult, ToolHost } from './loop/agent.js';
export { Agent, createAgent, defaultMaxSteps } from './loop/agent.js';
export type { StopReason } from './loop/agent-event-shapes.js';
export type { AgentEvent, AgentListener } from './loop/agent-events.js';
export type { ResultCut } from './loop/result-budget.js';
export { defaultMaxResultTokens } from './loop/result-budget.js';
export type { SamplingOptions, SamplingPolicy } from './loop/sampling.js';
export { samplingHandler } from './loop/sampling.js';
export type { TraceOptions } from './loop/trace.js';
export { traceListener } from './loop/trace.js';
export type { AnthropicModelOptions } from './models/anthropic-model.js';
export { createAnthropicModel } from './models/anthropic-model.js';
export type { ContentPart, Message, ToolCall, ToolResult, Usage } from './models/messages.js';
export type { CompleteOptions, Model, ModelRequest, ModelResponse, ToolSpec } from './models/model.js';
export type { OpenAIModelOptions } from './models/openai-model.js';
export { createOpenAIModel } from './models/openai-model.js';
export type { SelectedModel } from './models/select-model.js';
export { selectModel } from './models/select-model.js';
export type { RegisteredTool } from './registry/tool-registry.js';
export { ToolRegistry } from './registry/tool-registry.js';
export type { Provider } from './registry/translate-schema.js';
export { translateSchema } from './registry/translate-schema.js';
export type {
  ToolSearchMode,
  ToolSearchOptions,
  ToolSearchResult,
  ToolSelection,
} from './tool-search/tool-selection.js';
export { defaultToolSearchThreshold } from './tool-search/tool-selection.js';
