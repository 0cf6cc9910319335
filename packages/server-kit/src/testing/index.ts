export { heapAfterGc } from './heap-after-gc.js';
export type {
  SpawnedTestClient,
  SpawnOptions,
  TestClient,
  TestClientOptions,
  TransportUnderTest,
} from './test-client.js';
export { connectTestClient, resultText, spawnTestClient, transportsUnderTest } from './test-client.js';
