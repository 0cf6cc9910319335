import { readFile } from 'node:fs/promises';
import { HostError } from '../errors.js';
import { parseScript } from '../testing/script.js';
import { startScriptedModel } from '../testing/scripted-model.js';
import { createAnthropicModel } from './anthropic-model.js';
import type { Model } from './model.js';
import { createOpenAIModel } from './openai-model.js';

/** A model ready to use, and what to release after. */
export interface SelectedModel {
  model: Model;
  /** Stops what the model needed (the scripted model's server); a no-op for remote providers. */
  close(): Promise<void>;
}

/** What to do when no model is configured, for people. */
export const howToConfigureModel =
  'No model configured. Pass --model openai:MODEL (with OPENAI_API_KEY, or OPENAI_BASE_URL for Ollama, vLLM, ' +
  'llama.cpp or LM Studio), --model anthropic:MODEL (with ANTHROPIC_API_KEY), --model ollama:MODEL, or ' +
  '--model scripted:FILE.json for an offline scripted model; or set MCPKIT_MODEL to one of these.';

const noop = async () => {};

/**
 * Resolves `provider:model` (from `--model`, else `MCPKIT_MODEL`, else a default for whichever API key is set) to a
 * model: `openai:` (any OpenAI-compatible API via OPENAI_BASE_URL), `anthropic:`, `ollama:` (local), `scripted:FILE`.
 */
export async function selectModel(
  spec: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<SelectedModel> {
  let chosen = spec ?? environment.MCPKIT_MODEL;
  if (!chosen && environment.ANTHROPIC_API_KEY) chosen = 'anthropic:claude-sonnet-4-5';
  if (!chosen && environment.OPENAI_API_KEY) chosen = 'openai:gpt-4o-mini';
  if (!chosen) throw new HostError('MODEL_NOT_CONFIGURED', howToConfigureModel);
  const colon = chosen.indexOf(':');
  const provider = colon < 0 ? chosen : chosen.slice(0, colon);
  const name = colon < 0 ? '' : chosen.slice(colon + 1);
  if (!name) {
    throw new HostError(
      'MODEL_NOT_CONFIGURED',
      `"${chosen}" names no model; write provider:model, e.g. openai:gpt-4o-mini.`,
    );
  }

  if (provider === 'openai') {
    const baseUrl = environment.OPENAI_BASE_URL;
    const apiKey = environment.OPENAI_API_KEY;
    if (!apiKey && !baseUrl) {
      throw new HostError(
        'MODEL_NOT_CONFIGURED',
        'openai: needs OPENAI_API_KEY (or OPENAI_BASE_URL for a local server).',
      );
    }
    return {
      model: createOpenAIModel({ model: name, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) }),
      close: noop,
    };
  }
  if (provider === 'anthropic') {
    const baseUrl = environment.ANTHROPIC_BASE_URL;
    const apiKey = environment.ANTHROPIC_API_KEY;
    if (!apiKey && !baseUrl) throw new HostError('MODEL_NOT_CONFIGURED', 'anthropic: needs ANTHROPIC_API_KEY.');
    return {
      model: createAnthropicModel({ model: name, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) }),
      close: noop,
    };
  }
  if (provider === 'ollama') {
    const host = (environment.OLLAMA_HOST ?? 'http://127.0.0.1:11434').replace(/\/+$/, '');
    const origin = /^https?:\/\//.test(host) ? host : `http://${host}`;
    return { model: createOpenAIModel({ model: name, baseUrl: `${origin}/v1` }), close: noop };
  }
  if (provider === 'scripted') {
    let text: string;
    try {
      text = await readFile(name, 'utf8');
    } catch (error) {
      throw new HostError('MODEL_NOT_CONFIGURED', `Cannot read the script ${name}.`, { cause: error });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new HostError('SCRIPT_INVALID', `${name}: is not valid JSON.`);
    }
    const server = await startScriptedModel(parseScript(json, name));
    return { model: server.model(), close: () => server.close() };
  }
  throw new HostError(
    'MODEL_NOT_CONFIGURED',
    `Unknown model provider "${provider}"; use openai:, anthropic:, ollama: or scripted:.`,
  );
}
