// The JSON Schema of a mapping profile (`batch-sync schema profile`, schemas/profile.schema.json):
// the loader's zod schema on its input side (profile-schema.ts), plus what load-profile.ts and
// profile-targets.ts check after it that JSON Schema can say: the fields of each kind of item and
// which of them are required (read off the contract through target-fields.ts, per method), and the
// placeholders init leaves. So an editor completes a profile's fields and flags what the loader
// refuses; what JSON Schema cannot say is listed in docs/schemas.md.
import { inputJsonSchema, itemJsonSchema, resourceNamePattern, type JsonSchema } from '../contract/json-schema.js';
import { METHODS, RESOURCES, type Method, type Resource } from '../contract/resources.js';
import { FILL_IN } from './load-profile.js';
import { profileSchema } from './profile-schema.js';
import { targetShape, type TargetField } from './target-fields.js';

/** A string init left for the user to decide; VS Code shows `errorMessage` (a keyword it and ajv-errors read). */
const DECIDED = {
  not: { type: 'string', pattern: `^${FILL_IN}` },
  errorMessage: 'left by init for you to decide: batch-sync refuses the profile until it is replaced',
};
const DECIDED_REF = '#/$defs/decided';

/** Every string a user writes may not be a placeholder (the loader refuses one anywhere; keys are not values). */
function markPlaceholders(node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) markPlaceholders(n);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as JsonSchema;
  const type = schema.type;
  const text = type === 'string' || (Array.isArray(type) && type.includes('string'));
  if (text && !('enum' in schema) && !('const' in schema)) schema.$ref = DECIDED_REF;
  for (const [key, value] of Object.entries(schema)) if (key !== 'propertyNames') markPlaceholders(value);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The item's own description of a leaf (`stages[].value` → properties.stages.items.properties.value). */
function leafDescription(item: JsonSchema, path: string): string | undefined {
  let at: JsonSchema | undefined = item;
  for (const part of path.split('.')) {
    const list = part.endsWith('[]');
    at = (at?.properties as Record<string, JsonSchema> | undefined)?.[list ? part.slice(0, -2) : part];
    if (list) at = at?.items as JsonSchema | undefined;
  }
  return at?.description as string | undefined;
}

function about(field: TargetField, item: JsonSchema): JsonSchema {
  const required = !field.required ? '' : field.group === '' ? ', required' : `, required once any ${field.group} field is mapped`;
  const what = leafDescription(item, field.path);
  return { description: `${what ? `${what} ` : ''}(${field.kind}${required})` };
}

/** Which fields `fields` may name for one kind and method, and which it must. */
function fieldsOf(resource: Resource, method: Method): JsonSchema {
  const shape = targetShape(resource, method);
  const item = itemJsonSchema(resource, method);
  const plain: Record<string, JsonSchema> = {};
  const indexed: Record<string, JsonSchema> = {};
  const groups = new Map<string, TargetField[]>();
  for (const field of shape.fields.values()) {
    // `stages[0].value`: any index, or none (`stages[].value`), as the loader's schemaPath reads it
    if (field.path.includes('[]')) indexed[`^${field.path.split('[]').map(escapeRegExp).join('\\[\\d*\\]')}$`] = about(field, item);
    // only an array element can be left out (profile-targets.ts)
    else plain[field.path] = { ...about(field, item), not: { type: 'object', required: ['dropElementIfEmpty'] } };
    if (!field.group.includes('[]')) groups.set(field.group, [...(groups.get(field.group) ?? []), field]);
  }
  const requiredIn = (group: string) => (groups.get(group) ?? []).filter((f) => f.required).map((f) => f.path);
  // an optional object (currentStage) mapped at all needs its required fields
  const dependentRequired = Object.fromEntries(
    [...groups].filter(([group]) => group !== '' && requiredIn(group).length).flatMap(([group, fields]) => fields.map((f) => [f.path, requiredIn(group)])),
  );
  return {
    type: 'object',
    properties: plain,
    ...(Object.keys(indexed).length ? { patternProperties: indexed } : {}),
    additionalProperties: false,
    required: requiredIn(''),
    ...(Object.keys(dependentRequired).length ? { dependentRequired } : {}),
  };
}

/** When `resource` names this kind and `method` is this one (no method: POST, as the loader checks it). */
function kindBranch(resource: Resource, method: Method): JsonSchema {
  const named = { type: 'string', pattern: resourceNamePattern(resource) };
  const condition =
    method === 'post'
      ? { type: 'object', properties: { resource: named, method: { const: 'post' } }, required: ['resource'] }
      : { type: 'object', properties: { resource: named, method: { const: 'patch' } }, required: ['resource', 'method'] };
  const none = targetShape(resource, method).customFields === 'none';
  const fields = { type: 'object', properties: { fields: fieldsOf(resource, method), ...(none ? { customFields: { type: 'array', maxItems: 0 } } : {}) } };
  return {
    if: condition,
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
    then: fields,
  };
}

export function profileJsonSchema(): JsonSchema {
  const { $schema, ...base } = inputJsonSchema(profileSchema);
  markPlaceholders(base);
  return {
    $schema,
    title: 'batch-sync mapping profile (*.profile.json)',
    description: "How one export's columns become items of one kind. Generated by `batch-sync schema profile` from the zod schema the loader uses.",
    ...base,
    allOf: RESOURCES.flatMap((resource) => METHODS.map((method) => kindBranch(resource, method))),
    $defs: { decided: DECIDED },
  };
}
