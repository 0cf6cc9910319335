import { HostError } from '../../errors.js';
import type { ParsedCommand } from '../arguments.js';

/** `conformance-client URL`: the client side of the official conformance suite. */
export async function conformanceClientCommand(_parsed: ParsedCommand): Promise<number> {
  throw new HostError('USAGE', 'conformance-client is not built yet.');
}
