import { describe, expect, it } from 'vitest';
import { maxRobotsRules, parseRobotsRules } from './robots-rules.js';

describe('parseRobotsRules', () => {
  it('uses the groups naming our product token, else the * groups', () => {
    const text = 'User-agent: *\nDisallow: /\n\nUser-agent: Other\nUser-agent: MCPKIT-Search/2.0\nDisallow: /private\n';
    const ours = parseRobotsRules(text, 'mcpkit-search');
    expect(ours.allows('/public')).toBe(true);
    expect(ours.allows('/private/page')).toBe(false);
    const others = parseRobotsRules(text, 'someone-else');
    expect(others.allows('/public')).toBe(false);
  });

  it('matches * and $ as RFC 9309 does: the longest match wins, Allow on a tie', () => {
    const rules = parseRobotsRules(
      'User-agent: *\nDisallow: /*.pdf$\nDisallow: /shop/*/cart\nAllow: /shop/public/cart\nDisallow: /a\nAllow: /a\n',
      'bot',
    );
    expect(rules.allows('/files/report.pdf')).toBe(false);
    expect(rules.allows('/files/report.pdf?x=1')).toBe(true);
    expect(rules.allows('/shop/42/cart/items')).toBe(false);
    expect(rules.allows('/shop/public/cart')).toBe(true);
    expect(rules.allows('/a/b')).toBe(true);
    expect(rules.allows('/other')).toBe(true);
  });

  it('compares percent-encodings alike and treats an empty Disallow as no rule', () => {
    const rules = parseRobotsRules('User-agent: *\nDisallow: /ä\nDisallow: /x%2fy\nDisallow:\n', 'bot');
    expect(rules.allows('/%C3%A4/page')).toBe(false);
    expect(rules.allows('/x%2Fy')).toBe(false);
    expect(rules.allows('/free')).toBe(true);
  });

  it('matches huge wildcard runs against long URLs in milliseconds of CPU', () => {
    const runs = (count: number) =>
      Array.from({ length: 3000 }, (_, index) => `Disallow: /${'*a'.repeat(count)}${index}b`).join('\n');
    const hostile = parseRobotsRules(`User-agent: *\n${runs(250)}\nDisallow: /${'a*'.repeat(1000)}\n`, 'bot');
    const worst = parseRobotsRules(`User-agent: *\n${runs(16)}\n`, 'bot');
    // CPU time, not wall time: on a busy machine the wall clock counts the other processes' turns too (3.7 s at a
    // load average of 50 for work that uses about 0.1 s of CPU).
    const started = process.cpuUsage();
    for (let hop = 0; hop < 6; hop++) {
      expect(hostile.allows(`/${'a'.repeat(8000)}`)).toBe(true);
      expect(worst.allows(`/${'a'.repeat(8000)}`)).toBe(true);
    }
    const used = process.cpuUsage(started);
    // About 10 ms of CPU a call; the old matcher took seconds (rules x pattern x URL length).
    expect((used.user + used.system) / 1000, 'CPU ms for 12 matches').toBeLessThan(600);
    // The caps still leave real rules in force.
    expect(worst.allows(`/${'a'.repeat(20)}7b`)).toBe(false);
    expect(maxRobotsRules).toBe(1000);
  });
});
