// The read stage's public surface.

export { formatOf, openSource } from './open.js';
export { type SourceSample, sampleSource } from './sample.js';
export * from './types.js';
