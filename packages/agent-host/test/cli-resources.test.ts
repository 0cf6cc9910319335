import { describe, expect, it } from 'vitest';
import { cli, echoServer, workspace } from './cli-helpers.js';

describe('mcpkit-host chat and resources', () => {
  it('lists templates, attaches a template with its values, and sends a prompt with its embedded resource', async () => {
    const cwd = workspace(
      { mcpServers: { alpha: echoServer('alpha') } },
      { steps: [{ text: 'Got: {{user_message}}' }, { text: 'Then: {{user_message}}' }] },
    );
    const result = await cli(['chat', '-m', 'scripted:script.json', '-q'], {
      cwd,
      input:
        '/resources\n/attach note://notes/{name}\n/attach note://notes/{name} name=plan\nsum up\n/prompt with_note\n/exit\n',
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('note://notes/{name} name=…  note (alpha, template)\n');
    expect(result.stderr).toContain('The template note://notes/{name} needs name=….\n');
    expect(result.stdout).toContain('Got: Attached note://notes/plan:\nalpha: note plan says hi.\nsum up\n');
    expect(result.stdout).toContain('Then: Read this note:\nnote://readme:\nThe readme says hello.\n');
  });
});
