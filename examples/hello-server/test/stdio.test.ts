// #region test-stdio
import { fileURLToPath } from 'node:url';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/mcpkit-hello.js', import.meta.url));

it('serves over real stdio from its bin, with its command-line flags', async () => {
  await using client = await spawnTestClient({ command: process.execPath, args: [bin, '--greeting', 'Howdy'] });
  expect(await client.callToolText('greet', { name: 'Ada' })).toBe('Howdy, Ada!');
});
// #endregion test-stdio
