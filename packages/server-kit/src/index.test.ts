import { describe, expect, it } from 'vitest';
import * as kit from './index.js';
import * as task from './task.js';
import * as testing from './testing/index.js';

// Servers in this repository and outside it build on these names: removing or renaming one is a breaking change.
describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(kit).sort()).toEqual([
      'KitError',
      'ToolError',
      'UsageError',
      'applyBudget',
      'assertGlob',
      'audio',
      'budgetText',
      'combine',
      'compileGlob',
      'createServer',
      'createWorkerPool',
      'cutAtBoundary',
      'decodeCursor',
      'defaultBudget',
      'defaultMediaBudget',
      'definePrompt',
      'defineResource',
      'defineTool',
      'embeddedResource',
      'encodeCursor',
      'errorResult',
      'helpText',
      'image',
      'json',
      'paginate',
      'parseHttpAddress',
      'parseServerCommand',
      'resourceLink',
      'runOffThread',
      'runServerCommand',
      'serveHttp',
      'serveStdio',
      'startServer',
      'text',
      'truncationNote',
    ]);
    expect(Object.keys(testing).sort()).toEqual([
      'connectTestClient',
      'resultText',
      'spawnTestClient',
      'transportsUnderTest',
    ]);
    expect(Object.keys(task).sort()).toEqual(['ToolError', 'assertGlob', 'compileGlob']);
  });
});
