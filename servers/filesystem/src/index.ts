export type { HardLinkPolicy } from './confinement/scope.js';
export type { FilesystemLimits } from './dependencies.js';
export { defaultLimits } from './dependencies.js';
export type { FilesystemServerOptions } from './server.js';
export { createFilesystemServer } from './server.js';
