export { followRedirects } from '../connection/oauth/authorization-page.js';
export type { Script, ScriptStep } from './script.js';
export { parseScript } from './script.js';
export type { ScriptedModelOptions, ScriptedModelServer, ScriptedRequest } from './scripted-model.js';
export { startScriptedModel } from './scripted-model.js';
export type { WireCheckOptions } from './wire-checks.js';
export { wireProblems } from './wire-checks.js';
