import { fileURLToPath } from 'node:url';
import { spawnTestClient } from '@mcpkit/server-kit/testing';
import { describe } from 'vitest';
import { filesystemSuite } from './filesystem-suite.js';

const bin = fileURLToPath(new URL('../bin/mcpkit-filesystem.js', import.meta.url));

const limitFlags = {
  readBudget: '--read-budget',
  pageSize: '--page-size',
  treeEntries: '--tree-entries',
  searchResults: '--search-results',
  grepMatches: '--grep-matches',
  mediaBytes: '--media-bytes',
} as const;

describe('filesystem server from its bin, over stdio', () => {
  filesystemSuite(async (fixture, setup = {}) => {
    const args = [bin, '--log-level', 'error'];
    if (setup.readOnly) args.push('--read-only');
    if (setup.refuseHardLinks) args.push('--refuse-hard-links');
    for (const [limit, value] of Object.entries(setup.limits ?? {})) {
      args.push(limitFlags[limit as keyof typeof limitFlags], String(value));
    }
    args.push(...(setup.directories ?? [fixture.root]));
    return spawnTestClient({ command: process.execPath, args }, setup.roots ? { roots: setup.roots } : {});
  });
});
