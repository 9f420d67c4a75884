// Checks of a profile against the item kind it targets (independent of any file): every field is a
// field of the item, required fields are mapped, transforms come in a sensible order, templates parse.
import { aResource } from '../contract/resources.js';
import { closeMatches } from './close-matches.js';
import { CONVERSIONS, type FieldSpec, type Profile } from './profile-schema.js';
import { missingRequired, postOnlyFields, schemaPath, targetShape } from './target-fields.js';
import { parseTemplate } from './template.js';

function specProblems(where: string, spec: Pick<FieldSpec, 'transform' | 'template'>, out: string[]) {
  const t = spec.transform ?? [];
  const conv = t.findIndex((n) => (CONVERSIONS as readonly string[]).includes(n));
  if (conv >= 0 && conv !== t.length - 1) {
    out.push(`${where}.transform: "${t[conv]}" converts the value and must come last`);
  }
  if (spec.template !== undefined) {
    const parsed = parseTemplate(spec.template);
    if (!parsed.ok) out.push(`${where}.template: ${parsed.reason}`);
  }
}

export function checkProfileTargets(profile: Profile): string[] {
  const method = profile.method ?? 'post';
  const shape = targetShape(profile.resource, method);
  const item = aResource(profile.resource);
  // a profile written for PATCH (`"method": "patch"`) mapping what only POST sends contradicts itself
  const postOnly = method === 'patch' ? postOnlyFields(profile.resource) : new Set<string>();
  const out: string[] = [];
  for (const [path, spec] of Object.entries(profile.fields)) {
    const where = `fields.${path}`;
    if (path === 'customFields' || path.startsWith('customFields.') || path.startsWith('customFields[')) {
      out.push(`${where}: custom fields go in the "customFields" list of the profile`);
      continue;
    }
    if (postOnly.has(schemaPath(path))) {
      out.push(`${where}: ${path} is sent on create (POST) only, and this profile is for PATCH ("method": "patch"): remove it`);
      continue;
    }
    if (!shape.fields.has(schemaPath(path))) {
      const near = closeMatches(
        path,
        [...shape.fields.keys()].map((p) => p.replace('[]', '[0]')),
      );
      out.push(`${where}: not a field of ${item} item (${method.toUpperCase()})${near.length ? `; did you mean ${near.join(', ')}?` : ''}`);
      continue;
    }
    specProblems(where, spec, out);
    if (spec.dropElementIfEmpty && !/\[\d*\]\./.test(path))
      out.push(`${where}.dropElementIfEmpty: only a field of an array element (stages[0].occurredAt) leaves its element out; ${path} is in none`);
  }
  const missing = missingRequired(
    shape,
    Object.keys(profile.fields).filter((p) => shape.fields.has(schemaPath(p))),
  );
  for (const m of missing) out.push(`fields.${m}: required for ${item} item (${method.toUpperCase()}) but not mapped; give a column, template or const`);
  const keys = new Set<string>();
  (profile.customFields ?? []).forEach((cf, i) => {
    if (shape.customFields === 'none') out.push(`customFields[${i}]: ${item} item has no custom fields`);
    if (keys.has(cf.key)) out.push(`customFields[${i}].key: "${cf.key}" is used twice`);
    keys.add(cf.key);
    specProblems(`customFields[${i}]`, cf, out);
  });
  return out;
}
