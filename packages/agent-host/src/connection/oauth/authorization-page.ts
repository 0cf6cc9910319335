import { spawn } from 'node:child_process';

/** Shows the authorization page to the user (or to a stand-in for one) and returns once it is on its way. */
export type OpenAuthorizationPage = (url: URL) => Promise<void>;

function browserCommand(): [string, string[]] | undefined {
  // $BROWSER names the browser, as for other command-line programs; `none` opens nothing (the address is printed).
  const chosen = process.env.BROWSER;
  if (chosen) return chosen === 'none' ? undefined : [chosen, []];
  if (process.platform === 'darwin') return ['open', []];
  // Not `cmd /c start`: cmd would read the `&` between the address's parameters as the end of the command.
  if (process.platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler']];
  return ['xdg-open', []];
}

/**
 * Prints the address on stderr (so that a user on a machine with no browser, or over SSH, can open it elsewhere) and
 * asks the platform (or $BROWSER) to open it in the user's browser; a failure to open one is not an error.
 */
export function openInBrowser(write: (line: string) => void): OpenAuthorizationPage {
  return async (url) => {
    const browser = browserCommand();
    write(
      `To sign in, open this address in a browser${browser ? ' (trying to open it for you)' : ''}:\n  ${url.href}\n`,
    );
    if (!browser) return;
    const [command, args] = browser;
    await new Promise<void>((resolve) => {
      try {
        const child = spawn(command, [...args, url.href], { stdio: 'ignore', detached: true });
        child.once('error', () => resolve());
        child.once('spawn', () => {
          child.unref();
          resolve();
        });
      } catch {
        resolve();
      }
    });
  };
}

/**
 * A browser with no screen: follows the authorization server's redirects with an HTTP client that keeps cookies, up to
 * the redirect URI, which it then visits. For automation against an authorization server whose sign-in needs no
 * person (the conformance suite's, or a test provider's), never for a real user's account. Fails when the server
 * stops on a page of its own instead (it refused the request: an unknown redirect URI, a bad client).
 */
export function followRedirects(
  fetch: typeof globalThis.fetch = globalThis.fetch,
  maximumHops = 20,
): OpenAuthorizationPage {
  return async (start) => {
    const redirectUri = start.searchParams.get('redirect_uri');
    const cookies = new Map<string, string>();
    let url = start;
    for (let hop = 0; hop < maximumHops; hop += 1) {
      const cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const response = await fetch(url, { redirect: 'manual', ...(cookie ? { headers: { cookie } } : {}) });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const equals = pair.indexOf('=');
        if (equals > 0) cookies.set(pair.slice(0, equals).trim(), pair.slice(equals + 1).trim());
      }
      await response.body?.cancel();
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        url = new URL(location, url);
        continue;
      }
      if (redirectUri && `${url.origin}${url.pathname}` !== redirectUri) {
        throw new Error(
          `The authorization server did not send the browser back to ${redirectUri}: it answered ${response.status} at ${url.origin}${url.pathname}.`,
        );
      }
      return;
    }
    throw new Error(`The authorization server redirected more than ${maximumHops} times.`);
  };
}
