// The field a server rejection is about, for `field` in the JSON report and `_field` in the errors
// CSV. Conservative on purpose: only a detail that starts (after the per-item prefix) with
// `<path>: ` where <path> is a field path of the resource's contract counts. A bare word in a
// sentence ("title is too long") is never taken for a field.
import type { Resource } from '../contract/resources.js';
import { schemaPath, targetShape } from '../map/target-fields.js';
import { ITEM_PREFIX, withoutOwnPrefix } from './group-key.js';

const PATH_THEN_COLON = /^([a-z][A-Za-z0-9]*(?:\[\d+\])?(?:\.[a-z][A-Za-z0-9]*(?:\[\d+\])?)*)\s*:\s/;
const CUSTOM_FIELD = /^customFields(?:\[\]\.(?:key|type|value|name)|\[\])?$/;

const known = new Map<Resource, (path: string) => boolean>();

/** Whether `path` (`stages[1].value`, `amount`) is a field, or an object of fields, of the resource in POST or PATCH. */
function isContractPath(resource: Resource, path: string): boolean {
  let test = known.get(resource);
  if (!test) {
    const shapes = [targetShape(resource, 'post'), targetShape(resource, 'patch')];
    const leaves = new Set(shapes.flatMap((s) => [...s.fields.keys()]));
    const hasCustomFields = shapes.some((s) => s.customFields !== 'none');
    test = (p) => leaves.has(p) || [...leaves].some((l) => l.startsWith(`${p}.`) || l.startsWith(`${p}[]`)) || (hasCustomFields && CUSTOM_FIELD.test(p));
    known.set(resource, test);
  }
  return test(schemaPath(path));
}

export function serverField(detail: string, resource: Resource, externalId?: string): string | undefined {
  const text = withoutOwnPrefix(detail, externalId).replace(ITEM_PREFIX, '');
  const path = PATH_THEN_COLON.exec(text)?.[1];
  return path !== undefined && isContractPath(resource, path) ? path : undefined;
}
