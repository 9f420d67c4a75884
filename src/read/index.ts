// The read stage's public surface.

export { MIXED_ENCODING } from './mixed-lines.js';
export { namesGoAt, noHeaderRow } from './header-row.js';
export { openSource } from './open.js';
export { sampleSource } from './sample.js';
export * from './types.js';
