// Which array of a JSON file holds the items: the one `reader.root` names (a JSON pointer, RFC 6901),
// else the top-level array, else the one top-level key holding an array of objects (`records` of
// Salesforce, `value` of OData, `results` of HubSpot, `data` of Pipedrive and Zoho, `items`).
// Finding that key takes one pass over the file that parses nothing and keeps nothing.

import { utf8Chunks, type Utf8StreamOptions } from '../encoding.js';
import { JsonShapeError, type TopArray } from './json-shape.js';
import { JsonItemSplitter } from './json-splitter.js';

/** `/a~1b/c` → ["a/b", "c"]; "" → [] (the whole document). */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new JsonShapeError(`reader.root ${JSON.stringify(pointer)} is not a JSON pointer: start it with "/" (/${pointer})`, undefined);
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The path to the items when no pointer was given: [] for a top-level array, else the one array's key. */
export async function findRoot(source: Omit<Utf8StreamOptions, 'skip'>, maxItemBytes: number): Promise<string[]> {
  const survey = new JsonItemSplitter(maxItemBytes);
  const ignore = () => undefined;
  for await (const chunk of utf8Chunks({ ...source, skip: 0 })) {
    survey.feed(chunk, ignore);
    if (survey.topIsArray) return [];
  }
  survey.end();
  return [chooseArray(survey.arrays)];
}

function chooseArray(arrays: readonly TopArray[]): string {
  // {"items": [...]} and the batch envelope as before, whatever else the object holds
  if (arrays.some((a) => a.key === 'items')) return 'items';
  const candidates = arrays.filter((a) => a.first !== 'other');
  if (candidates.length === 1) return candidates[0]!.key;
  if (candidates.length === 0)
    throw new JsonShapeError(
      'a JSON object without an array of items: expected an array of items, or an object holding one (records, value, results, data, items); name it with reader.root',
      undefined,
    );
  const keys = candidates.map((a) => JSON.stringify(a.key)).join(', ');
  const pointer = `/${candidates[0]!.key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  throw new JsonShapeError(`holds ${candidates.length} arrays of objects (${keys}): name the items with reader.root (--root ${pointer})`, undefined);
}
