import type { ListToolsResult, ServerResult } from '@modelcontextprotocol/server';
import { compileGlob } from '../glob/compile-glob.js';
import type { Caller, Middleware, MiddlewareRequest } from './middleware.js';
import { refuse } from './refuse.js';

/**
 * Tool name patterns (globs: `*`, `?`, `{a,b}`), for every caller as a list, or by OAuth scope as a record whose key
 * `*` stands for every caller, with or without a token.
 */
export type ToolRules = readonly string[] | Readonly<Record<string, readonly string[]>>;

/** The compiled rules: per scope (`*` for everyone), the matchers of its patterns. */
type CompiledRules = Map<string, ((name: string) => boolean)[]>;

function compile(rules: ToolRules): CompiledRules {
  const byScope: Readonly<Record<string, readonly string[]>> = Array.isArray(rules)
    ? { '*': rules as readonly string[] }
    : (rules as Readonly<Record<string, readonly string[]>>);
  return new Map(
    Object.entries(byScope).map(([scope, patterns]) => [scope, patterns.map((pattern) => compileGlob(pattern))]),
  );
}

/** The scopes whose rules name `tool`, among those that apply to `caller` (`*` and its token's scopes). */
function matchingScopes(rules: CompiledRules, caller: Caller, tool: string): string[] {
  const found: string[] = [];
  for (const [scope, matchers] of rules) {
    const applies = scope === '*' || caller.auth?.scopes.includes(scope) === true;
    if (applies && matchers.some((matches) => matches(tool))) found.push(scope);
  }
  return found;
}

/** A middleware that answers tools/call and filters tools/list by whether a caller may use each tool. */
function toolAccess(allowed: (caller: Caller, tool: string) => boolean, refusal: (tool: string) => string): Middleware {
  return async (request: MiddlewareRequest, next) => {
    if (request.method === 'tools/call') {
      const tool = request.target ?? '';
      return allowed(request.caller, tool) ? next() : refuse(request, refusal(tool));
    }
    if (request.method !== 'tools/list') return next();
    const result = (await next()) as ListToolsResult & ServerResult;
    return { ...result, tools: result.tools.filter((tool) => allowed(request.caller, tool.name)) };
  };
}

/**
 * Lets a caller list and call only the tools a rule names for it: `allowTools(['read_*'])` for everyone, or
 * `allowTools({ '*': ['search'], 'files:write': ['write_*'] })` by the scopes of the caller's token. Other tools are
 * left out of tools/list, and calling one is an `isError` result naming the scopes that would allow it.
 */
export function allowTools(rules: ToolRules): Middleware {
  const compiled = compile(rules);
  return toolAccess(
    (caller, tool) => matchingScopes(compiled, caller, tool).length > 0,
    (tool) => {
      const scopes = [...compiled]
        .filter(([, matchers]) => matchers.some((matches) => matches(tool)))
        .map(([scope]) => scope);
      return scopes.length === 0
        ? `The tool "${tool}" is not available on this server.`
        : `The tool "${tool}" needs a token with the scope ${scopes.map((scope) => `"${scope}"`).join(' or ')}.`;
    },
  );
}

/**
 * Hides and refuses the tools a rule names for a caller: `denyTools(['drop_*'])` for everyone, or
 * `denyTools({ guest: ['write_*'] })` for callers whose token has the scope `guest`.
 */
export function denyTools(rules: ToolRules): Middleware {
  const compiled = compile(rules);
  return toolAccess(
    (caller, tool) => matchingScopes(compiled, caller, tool).length === 0,
    (tool) => `The tool "${tool}" is not available to this caller.`,
  );
}
