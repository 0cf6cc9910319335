export type {
  SpawnedTestClient,
  SpawnOptions,
  TestClient,
  TestClientOptions,
} from './test-client.js';
export { connectTestClient, resultText, spawnTestClient } from './test-client.js';
