#!/usr/bin/env node
// The stdout guard: on stdio servers stdout is the protocol, so no source file may write to it except the few
// files whose job is to write there (the stdio transport, the host's command-line output, and the server command
// runner, which prints --help and --version to stdout and exits before any server starts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Files allowed to touch process.stdout, relative to the repository root. */
const allowed = new Set([
  'packages/server-kit/src/transports/serve-stdio.ts',
  'packages/server-kit/src/cli/run-server-command.ts',
  'packages/agent-host/src/cli/output.ts',
]);

const forbidden = [
  { pattern: /\bprocess\.stdout\b/, what: 'process.stdout' },
  { pattern: /(^|[^.\w])console\.\w+\s*\(/, what: 'console.*' },
];

function* sourceFiles(directory) {
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) {
      yield* sourceFiles(path);
    } else if (path.endsWith('.ts') && !path.endsWith('.test.ts')) {
      yield path;
    }
  }
}

const problems = [];
for (const group of ['packages', 'servers']) {
  for (const name of readdirSync(join(root, group))) {
    const source = join(root, group, name, 'src');
    try {
      statSync(source);
    } catch {
      continue;
    }
    for (const file of sourceFiles(source)) {
      const path = relative(root, file).split('\\').join('/');
      if (allowed.has(path)) continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        const code = line.replace(/\/\/.*$/, '');
        for (const { pattern, what } of forbidden) {
          if (pattern.test(code)) problems.push(`${path}:${index + 1}: ${what} outside the stdout-owning files`);
        }
      });
    }
  }
}

if (problems.length > 0) {
  process.stderr.write(`stdout guard: ${problems.length} problem(s)\n${problems.join('\n')}\n`);
  process.exit(1);
}
process.stderr.write('stdout guard: no source file writes to stdout outside the allowed files\n');
