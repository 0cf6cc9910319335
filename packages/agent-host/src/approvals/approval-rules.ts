import type { ServerConfig } from '../config/server-config.js';
import { HostError } from '../errors.js';
import { type ApprovalPolicy, type ApprovalRules, approvalPolicies } from './approval-policy.js';

function isPolicy(value: string): value is ApprovalPolicy {
  return (approvalPolicies as readonly string[]).includes(value);
}

/** The approval rules a config gives: each server's `approve` field. */
export function approvalRulesOfConfig(servers: readonly Pick<ServerConfig, 'name' | 'approve'>[]): ApprovalRules {
  const entries = servers.flatMap((server) => (server.approve ? [[server.name, server.approve] as const] : []));
  return { servers: Object.fromEntries(entries) };
}

/**
 * The rules of `--approve` flags: `POLICY` for every tool, `SERVER=POLICY` for a server's tools, `SERVER/TOOL=POLICY`
 * for one tool (`*` as a wildcard). A malformed flag or an unknown policy is a USAGE HostError.
 */
export function approvalRulesOfFlags(flags: readonly string[]): ApprovalRules {
  const rules: ApprovalRules = {};
  const tools = new Map<string, Record<string, ApprovalPolicy>>();
  const serverPolicies = new Map<string, ApprovalPolicy>();
  for (const flag of flags) {
    const equals = flag.lastIndexOf('=');
    const target = equals === -1 ? '' : flag.slice(0, equals);
    const policy = equals === -1 ? flag : flag.slice(equals + 1);
    if (!isPolicy(policy) || (equals !== -1 && target === '')) {
      throw new HostError(
        'USAGE',
        `--approve takes POLICY, SERVER=POLICY or SERVER/TOOL=POLICY, with POLICY one of ${approvalPolicies.join(', ')}; ` +
          `got ${JSON.stringify(flag)}.`,
      );
    }
    if (target === '') {
      rules.default = policy;
      continue;
    }
    const slash = target.indexOf('/');
    if (slash === -1) {
      serverPolicies.set(target, policy);
      continue;
    }
    const server = target.slice(0, slash);
    const perTool = tools.get(server) ?? {};
    perTool[target.slice(slash + 1)] = policy;
    tools.set(server, perTool);
  }
  const servers: ApprovalRules['servers'] = {};
  for (const server of new Set([...tools.keys(), ...serverPolicies.keys()])) {
    const perTool = tools.get(server);
    const whole = serverPolicies.get(server);
    // A tool's own flag is more specific than its server's, so it is tried first.
    servers[server] = perTool ? { ...perTool, ...(whole ? { '*': whole } : {}) } : (whole as ApprovalPolicy);
  }
  if (Object.keys(servers).length > 0) rules.servers = servers;
  return rules;
}
