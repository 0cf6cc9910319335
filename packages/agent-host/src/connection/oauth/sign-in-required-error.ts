/** Why the host cannot reach a server without the user signing in (again). */
export type SignInReason = 'never-signed-in' | 'expired' | 'more-scope';

/** The server needs a sign-in in the browser, and the connection was not allowed to start one. */
export class SignInRequiredError extends Error {
  constructor(
    readonly serverUrl: string,
    readonly reason: SignInReason,
  ) {
    const why =
      reason === 'expired'
        ? 'the sign-in expired or was revoked; sign in again'
        : reason === 'more-scope'
          ? 'the server asks for more permissions than the sign-in granted; sign in again'
          : 'the server needs you to sign in';
    super(`${why}`);
    this.name = 'SignInRequiredError';
  }
}
