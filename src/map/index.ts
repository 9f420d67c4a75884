// Mapping: source records → API items, through a profile or, for canonical input, without one.
export type { MapResult, Mapper } from './types.js';
export { createMapper, type CreateMapperOptions } from './create-mapper.js';
export { loadProfile, parseProfile, FILL_IN } from './load-profile.js';
export type { Profile, FieldSpec, CustomFieldSpec, SkipCondition } from './profile-schema.js';
export { proposeProfile, type Proposal, type ProposeInput } from './propose.js';
