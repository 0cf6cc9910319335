import { ProtocolError, SdkHttpError } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/server-config.js';
import type { ConnectedClient } from './connected-client.js';

/**
 * Whether an HTTP server no longer knows the session of a failed request: it answered 404, or the connection broke (a
 * restarted server closes the old sockets) and a ping now gets 404. A server that still knows the session keeps it,
 * and the failed call is not repeated, since it may have run.
 */
export async function sessionLost(
  connected: ConnectedClient,
  transport: ServerConfig['transport']['kind'],
  error: unknown,
): Promise<boolean> {
  // The modern era has no session to lose: a restarted server simply answers the next request.
  if (transport !== 'http' || connected.protocol.era === 'modern') return false;
  if (error instanceof ProtocolError) return false;
  if (error instanceof SdkHttpError) return error.status === 404;
  try {
    await connected.client.ping({ timeout: 5000 });
    return false;
  } catch (pingError) {
    return pingError instanceof SdkHttpError && pingError.status === 404;
  }
}
