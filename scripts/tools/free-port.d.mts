/** Resolves with a TCP port on 127.0.0.1 that nothing listened on a moment ago. */
export function freePort(): Promise<number>;
