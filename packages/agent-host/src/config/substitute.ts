import { basename, sep } from 'node:path';
import { HostError } from '../errors.js';

/** What `${...}` references resolve against. */
export interface SubstitutionContext {
  /** Environment variables for `${env:NAME}`, `${NAME}` and `${NAME:-default}`. */
  environment: NodeJS.ProcessEnv;
  /** Values of VS Code `${input:ID}` references, already resolved. */
  inputs: Record<string, string>;
  /** Value of `${workspaceFolder}`. */
  workspaceFolder: string;
  /** Value of `${userHome}`. */
  userHome: string;
  /** Names the place being substituted in error messages, e.g. `mcp.json: server "db": field "env.TOKEN"`. */
  where: string;
}

// ${env:NAME}, ${input:ID}, ${workspaceFolder}, ${userHome}, ${NAME}, ${NAME:-default}, ${/}
const reference = /\$\{(?:(env|input):([^}]+)|([A-Za-z_][A-Za-z0-9_]*|\/)(?::-([^}]*))?)\}/g;

/**
 * Replaces `${env:NAME}` (VS Code, Cursor), `${NAME}` and `${NAME:-default}` (Claude Code), `${input:ID}`,
 * `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${pathSeparator}` and `${/}` (Cursor) in one
 * string. A missing variable without a default is an error that says
 * which one, rather than an empty string that fails later in a confusing way.
 */
export function substitute(value: string, context: SubstitutionContext): string {
  return value.replace(reference, (whole, scope?: string, scoped?: string, bare?: string, fallback?: string) => {
    if (scope === 'input' && scoped !== undefined) {
      const input = context.inputs[scoped];
      if (input === undefined) {
        throw new HostError('CONFIG_INPUT_MISSING', `${context.where}: input "${scoped}" has no value.`);
      }
      return input;
    }
    const name = scope === 'env' ? scoped : bare;
    if (name === undefined) return whole;
    if (scope === undefined) {
      const predefined = predefinedVariable(name, context);
      if (predefined !== undefined) return predefined;
    }
    const found = context.environment[name];
    if (found !== undefined) return found;
    if (fallback !== undefined) return fallback;
    throw new HostError('CONFIG_VARIABLE_UNSET', `${context.where}: environment variable ${name} is not set.`);
  });
}

/** The value of a variable the editors define themselves, or undefined for any other name. */
function predefinedVariable(name: string, context: SubstitutionContext): string | undefined {
  if (name === 'workspaceFolder') return context.workspaceFolder;
  if (name === 'workspaceFolderBasename') return basename(context.workspaceFolder);
  if (name === 'userHome') return context.userHome;
  if (name === 'pathSeparator' || name === '/') return sep;
  return undefined;
}

/** The `${input:ID}` ids a string refers to. */
export function inputReferences(value: string): string[] {
  return [...value.matchAll(/\$\{input:([^}]+)\}/g)].map((match) => match[1] ?? '');
}
