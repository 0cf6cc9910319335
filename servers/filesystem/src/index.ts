export type { FilesystemLimits } from './dependencies.js';
export { defaultLimits } from './dependencies.js';
export type { HardLinkPolicy } from './paths.js';
export type { FilesystemServerOptions } from './server.js';
export { createFilesystemServer } from './server.js';
