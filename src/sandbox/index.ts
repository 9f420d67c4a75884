// The sandbox's public surface: start one, read what it holds.
export { startSandbox, type SandboxHandle } from './server.js';
export { SANDBOX_DEFAULTS, OPTION_FLAGS, sandboxOptionsSchema, type SandboxOptions } from './options.js';
export type { BatchLogEntry, SandboxStats } from './batch-history.js';
export type { SandboxStatsView, Faults } from './sandbox-state.js';
export type { StoredRecord } from './record-store.js';
