export { checkToolOutput } from './check-tool-output.js';
export { heapAfterGc } from './heap-after-gc.js';
export type { ModulesLoaded, ModulesLoadedOptions } from './modules-loaded.js';
export { modulesLoadedAnswering } from './modules-loaded.js';
export type {
  ProtocolEraUnderTest,
  ServerUnderTest,
  SpawnedTestClient,
  SpawnOptions,
  TestClient,
  TestClientOptions,
  TestToolResult,
  TransportUnderTest,
} from './test-client.js';
export {
  connectTestClient,
  erasUnderTest,
  protocolEras,
  resultText,
  spawnTestClient,
  TestSdkClient,
  transportsUnderTest,
} from './test-client.js';
