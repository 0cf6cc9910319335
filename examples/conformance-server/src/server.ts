import { createServer, type KitServer, type LogLevel } from '@mcpkit/server-kit';
import {
  promptThatAsks,
  promptWithArguments,
  promptWithEmbeddedResource,
  promptWithImage,
  simplePrompt,
} from './prompts.js';
import { staticBinary, staticText, templateData, watchedResource } from './resources.js';
import {
  audioContent,
  embeddedResourceContent,
  imageContent,
  multipleContentTypes,
  simpleText,
} from './tools/content-tools.js';
import { elicitationDefaults, elicitationEnums } from './tools/elicitation-forms.js';
import {
  inputRequiredCapabilities,
  inputRequiredElicitation,
  inputRequiredListRoots,
  inputRequiredMultipleInputs,
  inputRequiredMultiRound,
  inputRequiredRequestState,
  inputRequiredSampling,
  inputRequiredTamperedState,
} from './tools/input-required-tools.js';
import { elicitation, errorHandling, sampling, toolWithLogging, toolWithProgress } from './tools/interaction-tools.js';
import { jsonSchema202012Tool } from './tools/json-schema-tool.js';
import {
  listChangeTriggers,
  loggingTool,
  missingCapability,
  streamingElicitation,
} from './tools/stateless-diagnostics.js';

/** The version this server reports at initialization. */
export const conformanceServerVersion = '0.1.0';

/** A kit server with every tool, resource and prompt the official conformance suite's server scenarios expect. */
export function createConformanceServer(options: { logLevel?: LogLevel } = {}): KitServer {
  const server: KitServer = createServer({
    name: 'mcpkit-conformance-server',
    version: conformanceServerVersion,
    instructions: 'A test server for the MCP conformance suite: every tool, resource and prompt is a fixture.',
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    tools: [
      simpleText,
      imageContent,
      audioContent,
      embeddedResourceContent,
      multipleContentTypes,
      toolWithLogging,
      toolWithProgress,
      errorHandling,
      sampling,
      elicitation,
      elicitationDefaults,
      elicitationEnums,
      jsonSchema202012Tool,
      inputRequiredElicitation,
      inputRequiredSampling,
      inputRequiredListRoots,
      inputRequiredRequestState,
      inputRequiredMultipleInputs,
      inputRequiredMultiRound,
      inputRequiredTamperedState,
      inputRequiredCapabilities,
      missingCapability,
      streamingElicitation,
      loggingTool,
      ...listChangeTriggers(() => server),
    ],
    resources: [staticText, staticBinary, watchedResource, templateData],
    prompts: [simplePrompt, promptWithArguments, promptWithEmbeddedResource, promptWithImage, promptThatAsks],
  });
  return server;
}
