/** Whether a tool name matches a config's name pattern, where `*` stands for any characters and the rest is literal. */
export function matchesNameGlob(glob: string, name: string): boolean {
  if (!glob.includes('*')) return glob === name;
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*+/g, '.*');
  return new RegExp(`^${escaped}$`).test(name);
}
