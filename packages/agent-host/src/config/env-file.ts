import { readFile } from 'node:fs/promises';
import { HostError } from '../errors.js';

/**
 * Reads a `.env` file as VS Code's `envFile` does: `KEY=VALUE` lines, `#` comments, an optional `export `, and
 * single or double quotes around a value. `where` names the config field in errors.
 */
export async function readEnvFile(path: string, where: string): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HostError('CONFIG_INVALID', `${where}: cannot read ${path}.`, { cause: error });
  }
  const variables: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match?.[1] || line.trim().startsWith('#')) continue;
    const raw = match[2] ?? '';
    const quoted = /^(['"])(.*)\1$/.exec(raw);
    variables[match[1]] = quoted ? (quoted[2] ?? '') : raw.replace(/\s+#.*$/, '');
  }
  return variables;
}
