// What a tools/call runs and nothing before it needs: the tool runner (arguments, handler, output schema, budgets,
// pre-rendered results) and the handler's context. The session loads this module by `import()` right after its first
// tools/list answer is written, or at the first call if that comes first (ADR 0020), so that a server's start
// neither reads nor compiles it before that answer.
export { runTool } from './run-tool.js';
// A round's asks (rounds/modern-asks.ts) take the sampling parameters from here, so that the bundle keeps them in
// this chunk instead of a 0.4 KB chunk of their own that the first call read as a second file: the asks run only
// inside a call, once this module is loaded.
export { samplingParams } from './sampling-params.js';
export { createModernToolContext, createToolContext } from './tool-context.js';
