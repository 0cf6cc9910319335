import { expect, it } from 'vitest';
import * as host from './index.js';

// The public surface is a decision: adding or removing an export should be a visible change in review.
it('exports exactly the public surface', () => {
  expect(Object.keys(host).sort()).toEqual([
    'Agent',
    'HostError',
    'ServerConnection',
    'TokenStore',
    'ToolRegistry',
    'approvalHandler',
    'claudeDesktopConfigPath',
    'connectHost',
    'createAgent',
    'createAnthropicModel',
    'createOpenAIModel',
    'defaultConfigPaths',
    'defaultMaxResultTokens',
    'defaultMaxSteps',
    'defaultTokenFile',
    'defaultToolSearchThreshold',
    'findConfigFile',
    'loadConfigFile',
    'openInBrowser',
    'parseConfig',
    'samplingHandler',
    'selectModel',
    'traceListener',
    'translateSchema',
  ]);
});
