import { createHash } from 'node:crypto';

/** The longest tool name every provider accepts (OpenAI and Anthropic both allow 64). */
export const maxToolNameLength = 64;

/** The pattern every provider accepts for a tool name. */
export const providerSafeName = /^[A-Za-z0-9_-]{1,64}$/;

/** Separates the server's name from the tool's in a model-facing name. */
export const nameSeparator = '__';

function shortHash(server: string, tool: string): string {
  return createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
}

/** `server__tool` with every character a provider refuses replaced by `_`; may need shortening. */
export function plainToolName(server: string, tool: string): string {
  return `${server}${nameSeparator}${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The plain name cut to fit, ending in a hash of (server, tool): stable, and distinct for distinct pairs. */
export function hashedToolName(server: string, tool: string): string {
  const suffix = `_${shortHash(server, tool)}`;
  return `${plainToolName(server, tool).slice(0, maxToolNameLength - suffix.length)}${suffix}`;
}

/**
 * Gives each (server, tool) pair a model-facing name: `server__tool` when it fits and is free, otherwise the hashed
 * form. Pairs are named in the order given, so a config's earlier servers keep the plain names.
 */
export function assignToolNames(pairs: Array<{ server: string; tool: string }>): string[] {
  const taken = new Set<string>();
  return pairs.map(({ server, tool }) => {
    const plain = plainToolName(server, tool);
    let name = plain.length <= maxToolNameLength && !taken.has(plain) ? plain : hashedToolName(server, tool);
    // Two pairs whose hashes agree in 32 bits and whose prefixes agree: lengthen by counting, still deterministic.
    for (let counter = 2; taken.has(name); counter++) {
      name = `${hashedToolName(server, tool).slice(0, maxToolNameLength - String(counter).length)}${counter}`;
    }
    taken.add(name);
    return name;
  });
}
