import type { ToolFilter } from '../config/server-config.js';

function pattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

/** Whether the config lets the model see a tool: on the allow list when there is one, and not on the deny list. */
export function toolAllowed(filter: ToolFilter, name: string): boolean {
  if (filter.deny?.some((glob) => pattern(glob).test(name))) return false;
  if (filter.allow && !filter.allow.some((glob) => pattern(glob).test(name))) return false;
  return true;
}
