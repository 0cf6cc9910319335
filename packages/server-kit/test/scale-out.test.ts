import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReverseProxy, reverseProxyKind, startReverseProxy } from '../../../scripts/tools/nginx-proxy.mjs';
import { expectFreshBundle } from './support/fresh-bundle.js';
import { type Answer, modernCall as modernCallDirect } from './support/modern-call.js';

// This file runs the bundle in dist/: it fails at once, saying so, on a bundle older than the kit's files.
beforeAll(expectFreshBundle);

// Issue 15: in the 2026-07-28 era no request depends on memory of an earlier one in the same process, so two
// instances of one server behind an ordinary round-robin reverse proxy serve one client correctly, including a call
// that asks twice and whose rounds land on different instances. Uses nginx (installed with apt-get when we are root);
// the test's name says when a node:http proxy stood in.

const fixtureServer = fileURLToPath(new URL('fixtures/scale-out-server.mjs', import.meta.url));
const proxyName =
  reverseProxyKind() === 'nginx'
    ? 'nginx'
    : 'a node:http proxy standing in for nginx (not installed and no root to install it, or MCPKIT_PROXY=node)';

/** Two server instances behind one proxy. */
interface Cluster {
  url: string;
  proxy: ReverseProxy;
  instances: ChildProcess[];
  /** The pid of each instance by its `host:port`, as the proxy's X-Upstream-Address names it. */
  pidByAddress: Map<string, number | undefined>;
}

/** Starts the fixture server with `key` as its request-state key; resolves with the child and its HTTP URL. */
function startInstance(key: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [fixtureServer, '--http', '127.0.0.1:0', '--stateless'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, MCPKIT_REQUEST_STATE_KEY: key },
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
      const url = /Serving Streamable HTTP at (\S+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url });
    });
    child.once('exit', (code) => reject(new Error(`the fixture server exited (${code}): ${stderr}`)));
  });
}

async function startCluster(keys: [string, string]): Promise<Cluster> {
  const instances = await Promise.all(keys.map(startInstance));
  const proxy = await startReverseProxy(instances.map((instance) => instance.url));
  return {
    url: `${proxy.url}/mcp`,
    proxy,
    instances: instances.map((instance) => instance.child),
    pidByAddress: new Map(instances.map((instance) => [new URL(instance.url).host, instance.child.pid])),
  };
}

async function stopCluster(cluster: Cluster | undefined) {
  if (!cluster) return;
  await cluster.proxy.close();
  for (const child of cluster.instances) child.kill();
}

/** One modern-era POST through the proxy, with the backend that answered it. */
async function modernCall(url: string, method: string, params: Record<string, unknown>) {
  const answer = await modernCallDirect(url, method, params, { clientName: 'scale-out-test' });
  return { ...answer, upstream: answer.headers.get('x-upstream-address') ?? 'none' };
}

/** The pid a fixture's complete answer names in its text. */
function pidIn(result: Answer | undefined): number {
  const pid = /pid (\d+)/.exec((result?.content as { text?: string }[] | undefined)?.[0]?.text ?? '')?.[1];
  if (pid === undefined) throw new Error(`no pid in ${JSON.stringify(result)}`);
  return Number(pid);
}

const askTwice = { name: 'ask_twice', arguments: { greeting: 'hello' } };
const nameAnswer = { 'elicit-1': { action: 'accept', content: { name: 'Ada' } } };
const colorAnswer = { 'elicit-2': { action: 'accept', content: { color: 'blue' } } };

describe(`two stateless instances behind ${proxyName}`, () => {
  let shared: Cluster | undefined;
  let foreign: Cluster | undefined;
  beforeAll(async () => {
    const key = randomBytes(32).toString('base64');
    [shared, foreign] = await Promise.all([
      startCluster([key, key]),
      startCluster([randomBytes(32).toString('base64'), randomBytes(32).toString('base64')]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([stopCluster(shared), stopCluster(foreign)]);
  });

  it('serve 200 modern calls alternating between them, multi-round elicitations included, with 0 errors', async () => {
    const { url, pidByAddress } = shared!;
    const served: number[] = [];
    const errors: unknown[] = [];
    const elicitations: (number | undefined)[][] = [];
    // 200 requests in sequence: 191 single calls and, at three points, the 3 rounds of a call that asks twice.
    for (let call = 0; served.length < 200; call++) {
      if (call % 64 === 10) {
        const round1 = await modernCall(url, 'tools/call', askTwice);
        const round2 = await modernCall(url, 'tools/call', {
          ...askTwice,
          inputResponses: nameAnswer,
          requestState: round1.message?.result?.requestState,
        });
        const round3 = await modernCall(url, 'tools/call', {
          ...askTwice,
          inputResponses: colorAnswer,
          requestState: round2.message?.result?.requestState,
        });
        for (const round of [round1, round2, round3]) {
          if (round.status !== 200 || round.message?.error) errors.push(round);
        }
        expect(round1.message?.result).toMatchObject({
          resultType: 'input_required',
          inputRequests: { 'elicit-1': {} },
        });
        expect(round2.message?.result).toMatchObject({
          resultType: 'input_required',
          inputRequests: { 'elicit-2': {} },
        });
        expect(round3.message?.result).toMatchObject({
          resultType: 'complete',
          content: [{ type: 'text', text: expect.stringMatching(/^hello Ada, who likes blue; pid \d+ answers$/) }],
        });
        const rounds = [round1, round2, round3].map((round) => pidByAddress.get(round.upstream) ?? -1);
        expect(pidIn(round3.message?.result)).toBe(rounds[2]);
        elicitations.push(rounds);
        served.push(...rounds);
        continue;
      }
      const answer = await modernCall(url, 'tools/call', { name: 'who_answers', arguments: { call } });
      if (answer.status !== 200 || answer.message?.error || answer.message?.result?.resultType !== 'complete') {
        errors.push(answer);
        continue;
      }
      const pid = pidIn(answer.message.result);
      // The proxy's word on where the request went agrees with the process that answered.
      expect(pidByAddress.get(answer.upstream)).toBe(pid);
      served.push(pid);
    }

    expect(errors).toEqual([]);
    const instancePids = shared!.instances.map((child) => child.pid);
    expect(new Set(served)).toEqual(new Set(instancePids));
    for (const pid of instancePids) expect(served.filter((each) => each === pid)).toHaveLength(100);
    // Round robin: no request went to the instance that served the one before it, rounds of one call included.
    for (let index = 1; index < served.length; index++) expect(served[index]).not.toBe(served[index - 1]);
    expect(elicitations).toHaveLength(3);
    for (const [first, second, third] of elicitations) {
      expect(second).not.toBe(first);
      expect(third).not.toBe(second);
    }
  });

  it('refuses a round that lands on an instance with another key (-32602), and takes it on the one that signed', async () => {
    const { url, pidByAddress } = foreign!;
    const round1 = await modernCall(url, 'tools/call', askTwice);
    expect(round1.message?.result).toMatchObject({ resultType: 'input_required' });
    const retry = { ...askTwice, inputResponses: nameAnswer, requestState: round1.message?.result?.requestState };
    // The proxy alternates: the first retry reaches the other instance, the second the one that signed the state.
    const elsewhere = await modernCall(url, 'tools/call', retry);
    expect(pidByAddress.get(elsewhere.upstream)).not.toBe(pidByAddress.get(round1.upstream));
    expect(elsewhere.message?.error).toMatchObject({
      code: -32602,
      data: { reason: 'invalid_request_state', detail: 'altered' },
    });
    const home = await modernCall(url, 'tools/call', retry);
    expect(home.upstream).toBe(round1.upstream);
    expect(home.message?.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicit-2': {} } });
  });
});
