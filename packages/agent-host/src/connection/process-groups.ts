import type { ChildProcess } from 'node:child_process';

// Every live child's process group, so that even a host that exits abruptly (an uncaught error, process.exit) ends
// them: servers started through `npx` or a shell are grandchildren that killing the child alone would leave behind.
const liveGroups = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Sends a signal to the child's whole process group (to the child alone where groups do not exist). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill(signal);
    else process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Remembers a child so that the host's exit ends its group. */
export function trackGroup(child: ChildProcess): void {
  liveGroups.add(child);
  child.once('exit', () => {
    liveGroups.delete(child);
    // A server that exits on its own (a crash) can leave its group behind: the real server under an npx or shell
    // wrapper, or helpers it started. With the leader gone nothing will talk to them again.
    signalGroup(child, 'SIGKILL');
  });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
}

/** Ends a child's group: SIGTERM, then SIGKILL after `graceMs`; resolves when the child has exited. */
export async function endGroup(child: ChildProcess, graceMs = 2000): Promise<void> {
  const exited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  // The child may have exited while grandchildren ignored SIGTERM; make sure the group is gone.
  signalGroup(child, 'SIGKILL');
  liveGroups.delete(child);
}
