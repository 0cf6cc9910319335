#!/usr/bin/env node
// The load generator, run in a process of its own so that it takes no CPU from the server under test: autocannon
// against one endpoint for a fixed time, each request's JSON-RPC id made unique, each answer checked for the echoed
// text. Reads its settings as one JSON argument; prints one JSON line: answers per second, latency percentiles in
// ms (exact, from each response's own timing: autocannon's histogram keeps whole milliseconds), non-2xx, errors and
// answers without the echo.
//   node load.mjs '{"url":"…","connections":16,"seconds":5,"requests":[{"headers":{…},"body":"…"}],"expect":"…"}'
import autocannon from 'autocannon';

const settings = JSON.parse(process.argv[2]);
const latencies = [];
const instance = autocannon({
  url: settings.url,
  method: 'POST',
  connections: settings.connections,
  duration: settings.seconds,
  // Several requests are sent in turn on each connection (the soak mixes both eras).
  requests: settings.requests.map(({ headers, body }) => ({ method: 'POST', headers, body })),
  idReplacement: true,
  verifyBody: (body) => body.includes(settings.expect),
});
instance.on('response', (_client, statusCode, _bytes, milliseconds) => {
  if (statusCode >= 200 && statusCode < 300) latencies.push(milliseconds);
});
const result = await instance;
latencies.sort((a, b) => a - b);
const percentile = (fraction) =>
  latencies.length === 0
    ? Number.NaN
    : latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))];
const answered = latencies.length - result.mismatches;
process.stdout.write(
  `${JSON.stringify({
    perSecond: answered / result.duration,
    answered,
    p50: percentile(0.5),
    p99: percentile(0.99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    mismatches: result.mismatches,
  })}\n`,
);
