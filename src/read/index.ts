// The read stage's public surface.

export { openSource } from './open.js';
export { sampleSource } from './sample.js';
export * from './types.js';
