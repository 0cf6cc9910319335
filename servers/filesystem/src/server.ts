import { createServer, createWorkerPool, type KitServer, type LogLevel } from '@mcpkit/server-kit';
import { PathGuard } from './confinement/path-guard.js';
import type { HardLinkPolicy } from './confinement/scope.js';
import { defaultLimits, type FilesystemLimits, type ToolDependencies } from './dependencies.js';
import { fileResources } from './resources/file-resources.js';
import { createDirectory } from './tools/create-directory.js';
import { directoryTree } from './tools/directory-tree.js';
import { editFile } from './tools/edit-file.js';
import { getFileInfo } from './tools/get-file-info.js';
import { grep } from './tools/grep.js';
import { listAllowedDirectories } from './tools/list-allowed-directories.js';
import { listDirectory } from './tools/list-directory.js';
import { listDirectoryWithSizes } from './tools/list-directory-with-sizes.js';
import { moveFile } from './tools/move-file.js';
import { readMediaFile } from './tools/read-media-file.js';
import { readMultipleFiles } from './tools/read-multiple-files.js';
import { readTextFile } from './tools/read-text-file.js';
import { searchFiles } from './tools/search-files.js';
import { writeFile } from './tools/write-file.js';

/** How a filesystem server is set up. */
export interface FilesystemServerOptions {
  /** The allowed directories; may be empty when the client provides roots. */
  directories: readonly string[];
  /** Offer no tool that writes (write_file, edit_file, create_directory, move_file are not listed at all). */
  readOnly?: boolean;
  /** Whether regular files with several hard links may be read (default `allow`; writes never modify them in place). */
  hardLinks?: HardLinkPolicy;
  /** Caps of results; each cut result says how to get more. */
  limits?: Partial<FilesystemLimits>;
  /** The lowest level logged to stderr. */
  logLevel?: LogLevel;
  /** The server's version, sent at initialization. */
  version?: string;
}

/** Builds the filesystem server: resolves the allowed directories and wires every tool and the file resources. */
export async function createFilesystemServer(options: FilesystemServerOptions): Promise<KitServer> {
  const guard = await PathGuard.create(options.directories, { hardLinks: options.hardLinks ?? 'allow' });
  // Workers start on first use and never keep the process alive while idle.
  const workers = createWorkerPool();
  const dependencies: ToolDependencies = { guard, limits: { ...defaultLimits, ...options.limits }, workers };
  const reading = [
    readTextFile(dependencies),
    readTextFile(dependencies, 'read_file'),
    readMediaFile(dependencies),
    readMultipleFiles(dependencies),
    listDirectory(dependencies),
    listDirectoryWithSizes(dependencies),
    directoryTree(dependencies),
    searchFiles(dependencies),
    grep(dependencies),
    getFileInfo(dependencies),
    listAllowedDirectories(dependencies),
  ];
  const writing = [
    writeFile(dependencies),
    editFile(dependencies),
    createDirectory(dependencies),
    moveFile(dependencies),
  ];
  const server = createServer({
    name: 'mcpkit-filesystem',
    version: options.version ?? '0.1.0',
    title: 'Filesystem',
    instructions:
      'Files inside the allowed directories (see list_allowed_directories). Find files with search_files, search ' +
      'their contents with grep, read with read_text_file (line ranges for large files)' +
      (options.readOnly ? '. This server is read-only.' : ', change them with edit_file or write_file.'),
    tools: options.readOnly ? reading : [...reading, ...writing],
    resources: [fileResources(dependencies)],
    // Results hold themselves to the read budget; this is the kit's safety net above it.
    budget: dependencies.limits.readBudget + 10_000,
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    onClose: () => workers.close(),
  });
  for (const reason of guard.skipped) server.log.warning(`${reason} It is left out.`);
  return server;
}
