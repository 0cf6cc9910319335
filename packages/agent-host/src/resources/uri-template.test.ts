import { describe, expect, it } from 'vitest';
import { expandUriTemplate, templatePrefix, templateVariables } from './uri-template.js';

describe('URI templates', () => {
  it('expands the RFC 6570 forms resource templates use', () => {
    expect(expandUriTemplate('note://notes/{name}', { name: 'a b/c' })).toBe('note://notes/a%20b%2Fc');
    expect(expandUriTemplate('file:///{+path}', { path: 'docs/a b.md' })).toBe('file:///docs/a%20b.md');
    expect(expandUriTemplate('search://q{?query,limit}', { query: 'x&y', limit: '5' })).toBe(
      'search://q?query=x%26y&limit=5',
    );
    expect(expandUriTemplate('search://q{?query,limit}', { query: 'x' })).toBe('search://q?query=x');
    expect(expandUriTemplate('repo://{owner}{/path*}', { owner: 'o', path: 'p' })).toBe('repo://o/p');
  });

  it('names the variables and the literal start of a template', () => {
    expect(templateVariables('search://{kind}/q{?query,kind}')).toEqual(['kind', 'query']);
    expect(templatePrefix('note://notes/{name}')).toBe('note://notes/');
    expect(templatePrefix('note://fixed')).toBe('note://fixed');
  });
});
