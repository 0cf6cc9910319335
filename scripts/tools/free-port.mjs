// A loopback port free at the moment of asking, for programs that cannot listen on port 0 themselves (nginx,
// PostgreSQL). Another process may take it before the caller binds it: callers retry on a bind failure.
import { createServer } from 'node:net';

/** Resolves with a TCP port on 127.0.0.1 that nothing listened on a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
