/**
 * `node:util`, taken from the built-in itself (`process.getBuiltinModule`, Node 20.16 and later): an `import` of
 * `node:util` builds its ES module facade, which reads every export and so loads the modules behind `MIMEType` and
 * `parseArgs` (about 0.7 ms of CPU and 30 KB of heap at each start, which the SDK's own servers do not pay; ADR 0020).
 * The kit's modules take what they use of it from here.
 */
export const nodeUtil = process.getBuiltinModule('node:util');
