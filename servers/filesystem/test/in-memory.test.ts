import { connectTestClient, protocolEras } from '@mcpkit/server-kit/testing';
import { describe } from 'vitest';
import { createFilesystemServer } from '../src/index.js';
import { filesystemSuite } from './filesystem-suite.js';

describe.each(protocolEras)('filesystem server in memory, protocol %s', (era) => {
  filesystemSuite(async (fixture, setup = {}) => {
    const server = await createFilesystemServer({
      directories: setup.directories ?? [fixture.root],
      ...(setup.readOnly ? { readOnly: true } : {}),
      ...(setup.refuseHardLinks ? { hardLinks: 'refuse' as const } : {}),
      ...(setup.limits ? { limits: setup.limits } : {}),
      logLevel: 'error',
    });
    const client = await connectTestClient(server, { era, ...(setup.roots ? { roots: setup.roots } : {}) });
    const close = client.close;
    return Object.assign(client, {
      close: async () => {
        await close();
        await server.close();
      },
    });
  });
});
