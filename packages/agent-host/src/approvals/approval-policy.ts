import type { Tool } from '../connection/types.js';
import { matchesNameGlob } from '../registry/name-glob.js';

/** The hints a server gives about a tool (untrusted: a server can lie). */
export type ToolHints = Tool['annotations'];

/** Every approval policy, in the order the help text lists them. */
export const approvalPolicies = ['allow', 'ask', 'always-ask', 'read-only'] as const;

/**
 * Whether a tool call runs without asking: `allow` runs every tool; `ask` runs read-only tools and asks about the
 * others; `always-ask` asks about every tool; `read-only` runs read-only tools and refuses the others without asking.
 */
export type ApprovalPolicy = (typeof approvalPolicies)[number];

/** A server's approval setting: one policy for all its tools, or policies by tool name (`*` as a wildcard). */
export type ServerApproval = ApprovalPolicy | Record<string, ApprovalPolicy>;

/** Approval policies: a default, and settings per server. */
export interface ApprovalRules {
  /** The policy of the tools no server setting names. */
  default?: ApprovalPolicy;
  /** Settings by server config name; per-tool entries are tried in the order written, the first match wins. */
  servers?: Record<string, ServerApproval>;
}

/** What a policy makes of one call: run it, ask a person, or refuse it. */
export type ApprovalOutcome = 'run' | 'ask' | 'refuse';

/** Default policy: read-only tools run, the others are asked about (refused where no one can be asked). */
export const defaultApprovalPolicy: ApprovalPolicy = 'ask';

/** The policy a rule set gives a server's tool, or undefined when it says nothing about it. */
function policyIn(rules: ApprovalRules, server: string, tool: string): ApprovalPolicy | undefined {
  const setting = rules.servers?.[server];
  if (typeof setting === 'string') return setting;
  if (setting) {
    for (const [glob, policy] of Object.entries(setting)) if (matchesNameGlob(glob, tool)) return policy;
  }
  return rules.default;
}

/**
 * The policy of a server's tool under layers of rules, the first layer that says anything winning (the command
 * line's flags before the config); `ask` when none does.
 */
export function resolvePolicy(layers: readonly ApprovalRules[], server: string, tool: string): ApprovalPolicy {
  for (const rules of layers) {
    const policy = policyIn(rules, server, tool);
    if (policy) return policy;
  }
  return defaultApprovalPolicy;
}

/** Whether a tool says it only reads: `readOnlyHint: true` (a server can lie; see docs/host.md#approvals). */
export function isReadOnly(annotations: ToolHints | undefined): boolean {
  return annotations?.readOnlyHint === true;
}

/** What a policy makes of a call of a tool with these annotations. */
export function approvalOutcome(policy: ApprovalPolicy, annotations: ToolHints | undefined): ApprovalOutcome {
  if (policy === 'allow') return 'run';
  if (policy === 'always-ask') return 'ask';
  if (isReadOnly(annotations)) return 'run';
  return policy === 'ask' ? 'ask' : 'refuse';
}
