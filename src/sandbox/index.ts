// The sandbox's public surface: start one, read what it holds.
export { startSandbox, type SandboxHandle } from './server.js';
export type { SandboxOptions } from './options.js';
