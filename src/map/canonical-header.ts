// What a canonical CSV header means. A header is the item's own dotted field path (`amount.value`,
// `currentStage.pipelineName`, `stages[0].occurredAt`), or a custom field written as
// `customFields.<key>`, `customFields.<key>:number` or `customFields.<key>[Display name]:boolean`
// (type string when not given: guessing would turn an id like `00123` into a number). In a PATCH
// run, a column the item has on create only (`type` of an account) is told apart from one no item has.
import { aResource, type Resource } from '../contract/resources.js';
import { ConfigError } from '../errors.js';
import { closeMatches } from './close-matches.js';
import { schemaPath, type TargetField, type TargetShape } from './target-fields.js';

export type CanonicalColumn =
  | { kind: 'field'; column: string; path: string; target: TargetField }
  | { kind: 'custom'; column: string; key: string; name: string; type: 'string' | 'number' | 'boolean' }
  /** A field of the item on create (POST) only, in a PATCH run: left out, with a notice. */
  | { kind: 'post-only'; column: string; path: string };

const CUSTOM = /^customFields\.([^[\]:]+?)\s*(?:\[([^\]]*)\])?\s*(?::\s*([A-Za-z]+))?$/;
const CUSTOM_TYPES = ['string', 'number', 'boolean'] as const;

/** `postOnly`: in a PATCH run, the paths the item has on create only (target-fields.ts postOnlyFields). */
export function parseCanonicalHeader(
  header: readonly string[],
  shape: TargetShape,
  resource: Resource,
  file: string,
  postOnly: ReadonlySet<string> = new Set(),
): CanonicalColumn[] {
  const suggestion = `map this export with a profile (batch-sync init ${file} --resource ${resource}), or name extra columns customFields.<key>[:string|number|boolean]`;
  return header.map((raw): CanonicalColumn => {
    const column = raw;
    const h = raw.trim();
    const custom = CUSTOM.exec(h);
    if (custom) {
      if (shape.customFields === 'none') throw new ConfigError(`${file}: column "${raw}": ${aResource(resource)} item has no custom fields`);
      const type = (custom[3] ?? 'string').toLowerCase();
      if (!(CUSTOM_TYPES as readonly string[]).includes(type)) {
        throw new ConfigError(`${file}: column "${raw}": unknown custom field type "${custom[3]}"; use string, number or boolean`);
      }
      const key = custom[1]!.trim();
      return { kind: 'custom', column, key, name: custom[2]?.trim() || key, type: type as (typeof CUSTOM_TYPES)[number] };
    }
    const target = shape.fields.get(schemaPath(h));
    if (!target && postOnly.has(schemaPath(h))) return { kind: 'post-only', column, path: h };
    const repeat = / \((\d+)\)$/.exec(h);
    const first = repeat ? h.slice(0, repeat.index) : undefined;
    if (!target && first !== undefined && shape.fields.has(schemaPath(first)) && header.some((x) => x.trim() === first)) {
      throw new ConfigError(
        `${file}: column "${first}" is named ${header.filter((x) => x.trim() === first || x.trim().startsWith(`${first} (`)).length} times (the second read as "${raw}"): a CSV without a profile names each field once; remove or rename the repeats`,
        { suggestion },
      );
    }
    if (!target) {
      const near = closeMatches(
        h,
        [...shape.fields.keys()].map((p) => p.replace('[]', '[0]')),
      );
      throw new ConfigError(
        `${file}: column "${raw}" is not a field of ${aResource(resource)} item${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; a CSV without a profile must name its columns by the item's field paths`,
        { suggestion },
      );
    }
    return { kind: 'field', column, path: h, target };
  });
}
