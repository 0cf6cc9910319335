import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchIndex } from '../src/search-index.js';
import { backends, indexedOn } from './backends.js';

const corpus = fileURLToPath(new URL('./fixtures/company/', import.meta.url)).replace(/\/$/, '');

/** Questions a person would ask of the handbook, with the document that answers each. */
export const judged: { query: string; expected: string }[] = [
  { query: "What is our company's vacation policy?", expected: 'hr/vacation-policy.md' },
  { query: 'how many vacation days carry over', expected: 'hr/vacation-policy.md' },
  { query: 'parental leave weeks', expected: 'hr/parental-leave.md' },
  { query: 'Can I work from home?', expected: 'hr/remote-work.md' },
  { query: 'roll back a bad deploy', expected: 'engineering/deployment-runbook.md' },
  { query: 'how long do we keep customer records', expected: 'legal/data-retention.md' },
  { query: 'hotel cost limit per night', expected: 'finance/expense-policy.md' },
  { query: 'password length', expected: 'it/password-policy.md' },
  { query: 'VPN', expected: 'it/vpn-setup.html' },
  { query: 'on-call compensation', expected: 'engineering/oncall.md' },
  { query: 'pull request review approvals', expected: 'engineering/code-review.md' },
  { query: 'visitors badge reception', expected: 'legal/office-security.txt' },
  { query: '"net 30"', expected: 'finance/invoices.md' },
  { query: 'onboard*', expected: 'hr/onboarding-checklist.md' },
];

describe.each(backends)('ranking on the judged set, $name', (backend) => {
  let index: SearchIndex;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (backend.skipReason) return;
    ({ index, close } = await indexedOn(backend, [corpus]));
  });
  afterAll(() => close?.());

  it.skipIf(backend.skipReason).each(judged)('ranks $expected first for $query', async ({ query, expected }) => {
    const page = await index.search({ query, limit: 3, offset: 0 });
    const top = page.hits[0]?.path;
    expect(top, JSON.stringify(page.hits.map((hit) => [hit.path, hit.score]))).toBe(
      backend.shownPath(corpus, expected),
    );
  });

  it.skipIf(backend.skipReason)('points the vacation question at the line that talks about vacation days', async () => {
    const page = await index.search({ query: 'vacation days carry over', limit: 1, offset: 0 });
    expect(page.hits[0]?.line).toBe(8);
    expect(page.hits[0]?.snippet).toContain('**vacation**');
  });
});
