// Mapping: source records → API items, through a profile or, for canonical input, without one.
export { createMapper } from './create-mapper.js';
export { loadProfile, parseProfile } from './load-profile.js';
export { proposeProfile } from './propose.js';
