import type { AuthInfo } from '@modelcontextprotocol/server';

/** The verified caller of a request, as handlers see it in `ctx.auth`. */
export interface AuthIdentity {
  /** The token's subject (the user, or the client for client-credentials tokens), when the token names one. */
  subject?: string;
  /** The OAuth client the token was issued to. */
  clientId: string;
  /** The scopes the token grants. */
  scopes: string[];
  /** When the token expires, in seconds since the epoch. */
  expiresAt?: number;
}

/** The identity of an `AuthInfo` the gate produced, without the token itself. */
export function identityOf(auth: AuthInfo): AuthIdentity {
  const subject = auth.extra?.subject;
  return {
    ...(typeof subject === 'string' ? { subject } : {}),
    clientId: auth.clientId,
    scopes: [...auth.scopes],
    ...(auth.expiresAt !== undefined ? { expiresAt: auth.expiresAt } : {}),
  };
}
