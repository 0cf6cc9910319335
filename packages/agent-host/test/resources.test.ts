import { describe, expect, it } from 'vitest';
import { connectHost } from '../src/host.js';
import { fixtureServer, textOf } from './helpers.js';

const textOfContents = (read: { contents: object[] }) =>
  read.contents.map((content) => ('text' in content ? content.text : undefined));

describe('reading resources', () => {
  it('lists templates, reads through them, and reads a link from the server that returned it', async () => {
    await using host = await connectHost(
      { servers: [fixtureServer('alpha', 'echo-server.mjs'), fixtureServer('beta', 'echo-server.mjs')] },
      { log: () => {} },
    );
    expect(host.connection('alpha')?.resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'note://notes/{name}', name: 'note' }),
    ]);
    // Not listed by anyone: the first server with a template it fits reads it.
    expect(textOfContents(await host.readResource('note://notes/plan'))).toEqual(['alpha: note plan says hi.']);
    // Once beta's tool links to it, beta is the server that reads it.
    expect(textOf(await host.call('beta', 'link_note', {}))).toBe('');
    expect(textOfContents(await host.readResource('note://notes/linked'))).toEqual(['beta: note linked says hi.']);
    expect(textOfContents(await host.readResource('note://readme'))).toEqual(['The readme says hello.']);
    await expect(host.readResource('other://x')).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});
