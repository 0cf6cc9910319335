import { describe, expect, it } from 'vitest';
import * as cli from './cli/index.js';
import * as kit from './index.js';
import * as task from './task.js';
import * as testing from './testing/index.js';

// Servers in this repository and outside it build on these names: removing or renaming one is a breaking change. The
// command-line names live on `./cli` (a library never imports its own CLI); budget internals stay inside the kit.
describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(kit).sort()).toEqual([
      'KitError',
      'ToolError',
      'allowTools',
      'assertGlob',
      'audio',
      'audit',
      'budgetText',
      'combine',
      'compileGlob',
      'createServer',
      'createWorkerPool',
      'cutAtBoundary',
      'decodeCursor',
      'definePrompt',
      'defineResource',
      'defineTool',
      'denyTools',
      'embeddedResource',
      'encodeCursor',
      'errorMessage',
      'errorResult',
      'image',
      'json',
      'outcomeOf',
      'paginate',
      'preRendered',
      'rateLimit',
      'refuse',
      'resourceLink',
      'runOffThread',
      'serveHttp',
      'serveStdio',
      'text',
      'timing',
      'truncationNote',
    ]);
    expect(Object.keys(cli).sort()).toEqual([
      'UsageError',
      'defineSubcommand',
      'helpText',
      'packageVersion',
      'parseHttpAddress',
      'parseServerCommand',
      'runServerCommand',
      'startServer',
    ]);
    expect(Object.keys(testing).sort()).toEqual([
      'TestSdkClient',
      'checkToolOutput',
      'connectTestClient',
      'erasUnderTest',
      'heapAfterGc',
      'modulesLoadedAnswering',
      'protocolEras',
      'resultText',
      'spawnTestClient',
      'transportsUnderTest',
    ]);
    expect(Object.keys(task).sort()).toEqual(['ToolError', 'assertGlob', 'compileGlob']);
  });
});
