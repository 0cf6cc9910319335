import type { KitServer } from '@mcpkit/server-kit';
import { connectTestClient, type TestClient } from '@mcpkit/server-kit/testing';
import { afterEach, beforeEach } from 'vitest';
import { createFilesystemServer, type FilesystemLimits } from '../src/index.js';
import { createFixture, type Fixture } from './fixture.js';

/**
 * The time limit of a test that builds or reads files of megabytes or trees of thousands of entries: a few seconds on
 * a quiet machine (12.7 s seen under load for a 10 MB edit), and CI runs every package at once on two cores, about
 * three times slower; vitest's default here is 30 s.
 */
export const heavyTestTimeout = 120_000;

/** A fixture tree, a server whose one allowed directory is its root, and a client connected to it in memory. */
export interface ConnectedServer {
  fixture: Fixture;
  server: KitServer;
  client: TestClient;
}

export interface ConnectedServerOptions {
  limits?: Partial<FilesystemLimits>;
  /** Adds to the fixture before the server starts. */
  prepare?(fixture: Fixture): void;
  /** Runs once the server is closed, before the fixture is removed (a tree too deep to remove by path, say). */
  beforeCleanup?(fixture: Fixture): void;
}

/**
 * A fresh fixture, server and client for each test of the describe block that calls this, closed after it. The
 * object returned is filled before each test: read its properties inside the tests. The hooks may take as long as a
 * heavy test (`prepare` may build a tree of thousands of levels).
 */
export function serverForEachTest(options: ConnectedServerOptions = {}): ConnectedServer {
  const connected = {} as ConnectedServer;
  beforeEach(async () => {
    connected.fixture = createFixture();
    options.prepare?.(connected.fixture);
    connected.server = await createFilesystemServer({
      directories: [connected.fixture.root],
      logLevel: 'error',
      limits: options.limits,
    });
    connected.client = await connectTestClient(connected.server);
  }, heavyTestTimeout);
  afterEach(async () => {
    await connected.client.close();
    await connected.server.close();
    options.beforeCleanup?.(connected.fixture);
    connected.fixture.cleanup();
  }, heavyTestTimeout);
  return connected;
}

/** Runs `use` with a client of a second server on `root` with other limits, and closes both whatever happens. */
export async function withServer(
  root: string,
  limits: Partial<FilesystemLimits>,
  use: (client: TestClient) => Promise<void>,
): Promise<void> {
  const server = await createFilesystemServer({ directories: [root], logLevel: 'error', limits });
  const client = await connectTestClient(server);
  try {
    await use(client);
  } finally {
    await client.close();
    await server.close();
  }
}
