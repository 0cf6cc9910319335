import { closeSync, constants, type Dirent, lstatSync, openSync, readdirSync, readlinkSync } from 'node:fs';

// No-follow: a link in the folder's place is refused, not followed. Non-blocking and directory-only: nothing else
// swapped in is waited on.
const folderFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
/** On Linux, `/proc/self/fd/N` names what a descriptor really is and lists it, which closes check-then-use races. */
const descriptorPaths = process.platform === 'linux';

/**
 * The entries of the folder at `path` (a real path, built by the walk from a real root), or undefined when it cannot be
 * listed or is no longer that folder. A link is never followed out of the directories: a folder swapped for a link (or
 * a parent of it swapped, at any time since its parent was listed), or a name that is not UTF-8 and so reads as a link
 * named with U+FFFD. On Linux the folder is opened without following a link and listed through its descriptor, whose
 * real path must be `path` itself; elsewhere it must be a folder, not a link, just before it is listed (a race remains).
 */
export function readFolderEntries(path: string): Dirent[] | undefined {
  if (!descriptorPaths) {
    try {
      if (!lstatSync(path, { throwIfNoEntry: false })?.isDirectory()) return undefined;
      return readdirSync(path, { withFileTypes: true });
    } catch {
      return undefined;
    }
  }
  let descriptor: number;
  try {
    descriptor = openSync(path, folderFlags);
  } catch {
    return undefined;
  }
  try {
    const opened = `/proc/self/fd/${descriptor}`;
    if (readlinkSync(opened) !== path) return undefined;
    return readdirSync(opened, { withFileTypes: true });
  } catch {
    return undefined;
  } finally {
    closeSync(descriptor);
  }
}
