import { HostError } from '../../errors.js';
import {
  type ClientName,
  clientConfigPath,
  type InstallableServer,
  installableServers,
  installEntry,
  serverEntry,
  snippet,
} from '../../install/client-config.js';
import type { ParsedCommand } from '../arguments.js';
import { writeError, writeOut } from '../output.js';

const clients: readonly ClientName[] = ['claude', 'cursor', 'vscode'];

/**
 * `install CLIENT SERVER [-- SERVER_ARGS...]`: prints the config entry that starts one of our servers from this
 * checkout in Claude Desktop, Cursor or VS Code; with `--write`, merges it into the client's config file (after a
 * backup of the old file).
 */
export async function installCommand(parsed: ParsedCommand): Promise<number> {
  const [client, server, ...args] = parsed.positionals;
  if (!client || !clients.includes(client as ClientName)) {
    throw new HostError('USAGE', `install needs a client first: ${clients.join(', ')}.`);
  }
  if (!server || !(server in installableServers)) {
    throw new HostError(
      'USAGE',
      `install needs a server after the client: ${Object.keys(installableServers).join(', ')}.`,
    );
  }
  const name = parsed.options.name ?? `mcpkit-${server}`;
  const entry = serverEntry(client as ClientName, server as InstallableServer, args);
  const file = clientConfigPath(client as ClientName);
  if (!parsed.options.write) {
    writeOut(snippet(client as ClientName, name, entry));
    writeError(`Add this to ${file}, or run the same command with --write to merge it there (with a backup).\n`);
    return 0;
  }
  const outcome = await installEntry(client as ClientName, file, name, entry);
  writeOut(`${outcome.replaced ? 'Replaced' : 'Added'} "${name}" in ${outcome.file}.\n`);
  if (outcome.backup) writeOut(`The previous file is saved as ${outcome.backup}.\n`);
  writeOut(
    `Restart ${client === 'claude' ? 'Claude Desktop' : client === 'cursor' ? 'Cursor' : 'VS Code'} to load it.\n`,
  );
  return 0;
}
