// The four item kinds in their POST and PATCH shapes, exactly per the spec's tables and its list of
// PATCH differences. Unknown fields are errors (strict objects): nothing is silently sent.
//
// Requiredness the spec leaves open, decided here (README, "The contract"):
// - `externalId` is required and non-empty for every kind and method.
// - POST: deals per the spec's table; activities need type, ownerExternalId and source; accounts
//   need name and type; sales profiles need email and profile.
// - PATCH: only `externalId` is required; every other field is an optional partial update.
import { z } from 'zod';
import type { Method, Resource } from './resources.js';
import { SEEN_VALUES, currencyCode, dateOrDateTime, dateTime, decimalString, email, externalId, nonBlank, seenValue } from './fields.js';
import { namedCustomFields, profileCustomFields } from './custom-field.js';

const amount = z
  .strictObject({
    value: decimalString('Decimal amount carried as a string.'),
    currency: currencyCode,
    exchangeRate: decimalString('Exchange rate applied, carried as a string.').optional(),
  })
  .describe('Amount of the deal.');

const stage = z
  .strictObject({
    pipelineName: nonBlank('Name of the pipeline.'),
    value: nonBlank('Name of the stage.'),
    occurredAt: dateTime('When the stage was entered (ISO-8601 date-time).').optional(),
  })
  .describe('A stage of a pipeline.');

const dealFields = {
  externalId: externalId('Unique identifier of the deal in the external system.'),
  title: nonBlank('Title of the deal.'),
  ownerExternalId: externalId('External id of the owner. It must exist as a sales profile.'),
  agentExternalId: externalId('External id of the agent. It must exist as a sales profile.'),
  isWon: z.boolean().describe('Whether the deal is won.'),
  amount,
  currentStage: stage.optional().describe('Current stage.'),
  stages: z.array(stage).optional().describe('Full history of stages.'),
  closeDate: dateOrDateTime('ISO-8601 date or date-time; null is accepted.').nullable().optional(),
  customFields: namedCustomFields.optional(),
};

const dealPost = z.strictObject(dealFields).describe('Deal item.');
/** The spec documents the same deal shape for PATCH; only externalId stays required (a partial update). */
const dealPatch = z.strictObject(dealFields).partial().required({ externalId: true }).describe('Deal item (PATCH).');

const activityFields = {
  externalId: externalId(),
  type: seenValue(SEEN_VALUES.activityType, 'Kind of activity.'),
  ownerExternalId: externalId('External id of the owner (a sales profile).'),
  source: z.strictObject({ name: seenValue(SEEN_VALUES.activitySourceName, 'Origin of the activity.') }).describe('Origin of the activity.'),
  customFields: namedCustomFields.optional(),
};
const associated = z
  .strictObject({
    accountExternalId: externalId('External id of the linked account.').optional(),
    dealExternalId: externalId('External id of the linked deal.').optional(),
  })
  .describe('Links to an account and a deal (POST only).');

const activityPost = z.strictObject({ ...activityFields, associated: associated.optional() }).describe('Activity item.');
const activityPatch = z.strictObject(activityFields).partial().required({ externalId: true }).describe('Activity item (PATCH: no `associated`).');

const accountFields = {
  externalId: externalId(),
  name: nonBlank('Name of the account.'),
  customFields: namedCustomFields.optional(),
};
const accountPost = z.strictObject({ ...accountFields, type: seenValue(SEEN_VALUES.accountType, 'Kind of account (POST only).') }).describe('Account item.');
const accountPatch = z.strictObject(accountFields).partial().required({ externalId: true }).describe('Account item (PATCH: no `type`).');

const profile = z
  .strictObject({
    firstName: nonBlank('First name.'),
    lastName: z.string().describe('Last name (may be empty for people with one name).'),
  })
  .describe('Name of the collaborator.');
const salesProfileFields = {
  externalId: externalId(),
  profile,
  customFields: profileCustomFields.optional(),
};
const salesProfilePost = z.strictObject({ ...salesProfileFields, email }).describe('Sales-profile item.');
const salesProfilePatch = z.strictObject(salesProfileFields).partial().required({ externalId: true }).describe('Sales-profile item (PATCH: no `email`).');

export const ITEM_SCHEMAS = {
  deal: { post: dealPost, patch: dealPatch },
  activity: { post: activityPost, patch: activityPatch },
  account: { post: accountPost, patch: accountPatch },
  'sales-profile': { post: salesProfilePost, patch: salesProfilePatch },
} as const satisfies Record<Resource, Record<Method, z.ZodType>>;

export function itemSchema(resource: Resource, method: Method): z.ZodType {
  return ITEM_SCHEMAS[resource][method];
}
