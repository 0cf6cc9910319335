// Runs a command to its end and collects what it printed: how the tests drive the Node 22 tools (the conformance
// suite, the MCP Inspector CLI), which are programs to run, not libraries to import.
import { spawn } from 'node:child_process';

/** Runs `command` with `args`, stdin closed, and resolves with its exit code and its stdout and stderr together. */
export function runToEnd(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
    let output = '';
    const collect = (chunk) => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}
