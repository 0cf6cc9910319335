// What a tools/call runs and nothing before it needs: the tool runner (arguments, handler, output schema, budgets,
// pre-rendered results) and the handler's context. The session loads this module by `import()` right after its first
// tools/list answer is written, or at the first call if that comes first (ADR 0020), so that a server's start
// neither reads nor compiles it before that answer.
export { runTool } from './run-tool.js';
export { createModernToolContext, createToolContext } from './tool-context.js';
