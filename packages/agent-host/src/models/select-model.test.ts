import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { selectModel } from './select-model.js';

describe('selectModel', () => {
  it('says how to configure a model when nothing is set', async () => {
    await expect(selectModel(undefined, {})).rejects.toMatchObject({
      code: 'MODEL_NOT_CONFIGURED',
      message: expect.stringContaining('--model openai:MODEL'),
    });
  });

  it('reads provider:model, MCPKIT_MODEL, and a default for whichever key is set', async () => {
    expect((await selectModel('openai:gpt-x', { OPENAI_API_KEY: 'k' })).model).toMatchObject({
      provider: 'openai',
      name: 'gpt-x',
    });
    expect(
      (await selectModel(undefined, { MCPKIT_MODEL: 'anthropic:claude-x', ANTHROPIC_API_KEY: 'k' })).model.name,
    ).toBe('claude-x');
    expect((await selectModel(undefined, { ANTHROPIC_API_KEY: 'k' })).model.provider).toBe('anthropic');
    expect((await selectModel(undefined, { OPENAI_API_KEY: 'k' })).model.provider).toBe('openai');
    expect((await selectModel('openai:local', { OPENAI_BASE_URL: 'http://127.0.0.1:8000/v1' })).model.name).toBe(
      'local',
    );
    expect((await selectModel('ollama:llama3.1', {})).model.provider).toBe('openai');
  });

  it('refuses a provider without its key, an unknown provider and a spec without a model', async () => {
    await expect(selectModel('anthropic:claude-x', {})).rejects.toThrow(/needs ANTHROPIC_API_KEY/);
    await expect(selectModel('openai:gpt-x', {})).rejects.toThrow(/needs OPENAI_API_KEY/);
    await expect(selectModel('gemini:pro', {})).rejects.toThrow(/Unknown model provider "gemini"/);
    await expect(selectModel('openai', {})).rejects.toThrow(/names no model/);
  });

  it('starts a scripted model from a file and says which step of a bad script is wrong', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'mcpkit-select-'));
    const good = join(directory, 'good.json');
    writeFileSync(good, JSON.stringify({ provider: 'anthropic', steps: [{ text: 'hi' }] }));
    const selected = await selectModel(`scripted:${good}`, {});
    try {
      expect(selected.model.provider).toBe('anthropic');
      expect((await selected.model.complete({ messages: [], tools: [] })).text).toBe('hi');
    } finally {
      await selected.close();
    }
    const bad = join(directory, 'bad.json');
    writeFileSync(bad, JSON.stringify({ steps: [{ text: 'ok' }, { toolCalls: [] }] }));
    await expect(selectModel(`scripted:${bad}`, {})).rejects.toMatchObject({
      code: 'SCRIPT_INVALID',
      message: expect.stringContaining('steps.1'),
    });
    await expect(selectModel(`scripted:${join(directory, 'none.json')}`, {})).rejects.toThrow(/Cannot read the script/);
  });
});
