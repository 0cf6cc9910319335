/** The URL with its password hidden, for status lines and logs. */
export function urlWithoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'postgres://(unparsable URL)';
  }
}
