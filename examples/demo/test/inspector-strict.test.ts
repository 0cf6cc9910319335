import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureNode22,
  ensureNpmTool,
  localToolEnvironment,
  npmInstallTimeoutMs,
} from '../../../scripts/tools/ensure-node22.mjs';
import { runToEnd } from '../../../scripts/tools/run-to-end.mjs';
import { prepareSampleData } from '../src/run-demo.js';
import { demoServers, type SampleData } from '../src/server-config.js';

/** The MCP Inspector line the issue names; its CLI checks tool schemas for portability with --strict. */
const inspectorSpec = '@modelcontextprotocol/inspector@2.12.0';

/** Lists a server's tools through the Inspector CLI in strict mode. */
function inspect(node22: string, inspector: string, command: string, args: string[]) {
  // Under Node 22 the Inspector's fetch follows HTTP_PROXY; local servers must not go through it (ADR 0022).
  const env = localToolEnvironment();
  return runToEnd(node22, [inspector, '--cli', '--method', 'tools/list', '--strict', command, ...args], { env });
}

describe("each reference server's tools/list passes the MCP Inspector CLI with --strict", () => {
  let node22: string;
  let inspector: string;
  let directory: string;
  let data: SampleData;

  // Two installs one after the other on a first run (Node 22, then the Inspector), each within the install time limit
  // (300 s unless MCPKIT_NPM_INSTALL_TIMEOUT_MS says otherwise): the hook allows both, and a minute for the rest.
  beforeAll(
    async () => {
      node22 = ensureNode22();
      const { bins } = ensureNpmTool(inspectorSpec);
      inspector = bins['mcp-inspector'] ?? '';
      directory = mkdtempSync(join(tmpdir(), 'mcpkit-inspector-'));
      data = await prepareSampleData(directory);
    },
    2 * npmInstallTimeoutMs() + 60_000,
  );

  afterAll(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  it('fails a server with an unportable schema (the check can fail)', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/unportable-server.mjs', import.meta.url));
    const { code, output } = await inspect(node22, inspector, process.execPath, [fixture]);
    expect(code, output).toBe(6);
  }, 120_000);

  for (const server of ['database', 'files', 'search'] as const) {
    it(`${server}`, async () => {
      const entry = demoServers(data).mcpServers[server];
      if (!entry) throw new Error(`no demo server ${server}`);
      const { code, output } = await inspect(node22, inspector, entry.command, entry.args);
      expect(output, output).toContain('"tools"');
      expect(code, output).toBe(0);
    }, 120_000);
  }
});
