// Issue 25, item 2: JSON as CRMs write it. The array of items under any one top-level key
// (Salesforce `records`, OData `value`, HubSpot `results`, Pipedrive/Zoho `data`, `items`), or the
// one `reader.root` (a JSON pointer) names; streamed as before.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { pointerTokens } from '../../src/read/json/json-root.js';
import { JsonItemSplitter } from '../../src/read/json/json-splitter.js';
import { errorOf, readAll, tempDir } from './helpers.js';

const file = tempDir();
const items = async (path: string, root?: string) =>
  (await readAll(path, root === undefined ? undefined : { root })).records.map((r) => (r.kind === 'item' ? r.item : r));
const SF_TREE = join(import.meta.dirname, '../../fixtures/outside/salesforce-tree-json/Opportunities.json');

describe('JSON roots', () => {
  it('a Salesforce tree export (records) is read as it is: 50 opportunities with their attributes', async () => {
    const { records } = await readAll(SF_TREE);
    expect(records).toHaveLength(50);
    expect(records[0]).toMatchObject({ kind: 'item', line: 3, item: { attributes: { type: 'Opportunity', referenceId: 'OpportunityRef1' } } });
  });

  it.each([
    [
      'OData / Dynamics Web API',
      '{"@odata.context": "https://x/api/data/v9.2/$metadata#opportunities", "value": [{"id":1},{"id":2}], "@odata.nextLink": "https://x?$skiptoken=2"}',
    ],
    ['HubSpot', '{"results": [{"id":1},{"id":2}], "paging": {"next": {"after": "2", "link": "https://x"}}}'],
    [
      'Pipedrive',
      '{"success": true, "data": [{"id":1},{"id":2}], "additional_data": {"pagination": {"start": 0}}, "related_objects": {"user": {"1": {"id": 1}}}}',
    ],
    ['Salesforce REST query', '{"totalSize": 2, "done": true, "records": [{"id":1},{"id":2}]}'],
    ['an array of strings beside it', '{"tags": ["a", "b"], "records": [{"id":1},{"id":2}]}'],
  ])('%s: the one array of objects is the items', async (_name, content) => {
    expect(await items(file(`${_name.replace(/\W+/g, '-')}.json`, content))).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('an empty array is the items too (no items: the usual warning)', async () => {
    const { records, warnings } = await readAll(file('empty.json', '{"done": true, "records": []}'));
    expect(records).toEqual([]);
    expect(warnings).toEqual(['has no items']);
  });

  it('two arrays of objects: one line naming both and reader.root', async () => {
    const path = file('two.json', '{"records": [{"id":1}], "errors": [{"message":"x"}]}');
    const err = await errorOf(readAll(path));
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toBe(`${path}: holds 2 arrays of objects ("records", "errors"): name the items with reader.root (--root /records)`);
  });

  it('reader.root chooses one, at any depth, with ~1 and ~0 escapes', async () => {
    const path = file('nested.json', '{"records": [{"id":1}], "errors": [{"id":9}], "a/b": {"x~y": [{"id":7}]}}');
    expect(await items(path, '/errors')).toEqual([{ id: 9 }]);
    expect(await items(path, '/a~1b/x~0y')).toEqual([{ id: 7 }]);
    expect(await items(file('top.json', '[{"id":3}]'), '')).toEqual([{ id: 3 }]);
  });

  // issue 36 row 9: the docs promise RFC 6901, whose array indexes were refused ("an array at pages")
  it('reader.root follows array indexes (RFC 6901): /pages/0/items, a top-level array, an array in an array', async () => {
    const pages = file('pages.json', '{"pages": [{"n": [1, "]"], "items": [{"id":1}]}, "x", 3, {"items": [{"id":2}, {"id":3}]}], "total": 3}');
    expect(await items(pages, '/pages/0/items')).toEqual([{ id: 1 }]);
    expect(await items(pages, '/pages/3/items')).toEqual([{ id: 2 }, { id: 3 }]);
    expect(await items(file('top-array.json', '[{"records": [{"id":4}]}, {"records": [{"id":5}]}]'), '/1/records')).toEqual([{ id: 5 }]);
    expect(await items(file('matrix.json', '{"m~x": [[{"id":0}], [{"id":6}]]}'), '/m~0x/1')).toEqual([{ id: 6 }]);
    // an object's key that looks like an index is a key
    expect(await items(file('keyed.json', '{"pages": {"0": {"items": [{"id":8}]}}}'), '/pages/0/items')).toEqual([{ id: 8 }]);
  });

  it('the way through arrays holds whatever the chunks’ boundaries (1, 2, 3, 7 bytes a chunk)', () => {
    const cases: Array<[string, string, unknown[]]> = [
      ['{"pages": [{"n": [1, "]"], "items": [{"id":1}]}, "x", 3, {"items": [{"id":2}, {"id":3}]}], "total": 3}', '/pages/3/items', [{ id: 2 }, { id: 3 }]],
      ['[{"records": [{"id":4}]}, {"records": [{"id":5}]}]', '/1/records', [{ id: 5 }]],
      ['{"m": [[{"id":0}], [{"id":6}, 7, "s"]], "z": 1}', '/m/1', [{ id: 6 }, 7, 's']],
      ['{"a": {"b": [true, {"c": [1,2]}]}}', '/a/b/1/c', [1, 2]],
    ];
    for (const [doc, pointer, want] of cases)
      for (const size of [1, 2, 3, 7]) {
        const splitter = new JsonItemSplitter(1e6, pointerTokens(pointer), pointer);
        const got: unknown[] = [];
        const bytes = Buffer.from(doc);
        for (let i = 0; i < bytes.length; i += size) splitter.feed(bytes.subarray(i, i + size), (text) => got.push(JSON.parse(text)));
        splitter.end();
        expect(got, `${pointer} in chunks of ${size}`).toEqual(want);
      }
  });

  it.each([
    ['/nothing', '{"records": [{"id":1}]}', 'reader.root "/nothing" names nothing in the file'],
    ['/done', '{"done": true, "records": []}', 'reader.root "/done" is a boolean, not an array of items'],
    ['/records', '[{"id":1}]', 'reader.root "/records": the file is an array, not an object'],
    ['records', '{"records": []}', 'reader.root "records" is not a JSON pointer: start it with "/" (/records)'],
    ['/pages/2/items', '{"pages": [{"items": []}]}', 'reader.root "/pages/2/items" names nothing in the file'],
    ['/pages/first/items', '{"pages": [{"items": []}]}', 'reader.root "/pages/first/items": "pages" is an array, and "first" is no index into it'],
    ['/pages/01/items', '{"pages": [{"items": []}, {"items": []}]}', 'reader.root "/pages/01/items": "pages" is an array, and "01" is no index into it'],
    ['/pages/0', '{"pages": [{"items": []}]}', 'reader.root "/pages/0" is an object, not an array of items'],
  ])('reader.root %j on the wrong file → one line', async (root, content, message) => {
    const path = file(`bad${root.length}${content.length}.json`, content);
    const err = await errorOf(readAll(path, { root }));
    expect(err.message).toContain(message);
    expect(err.message.startsWith(path)).toBe(true);
  });

  it('a top-level object without any array says what it expected', async () => {
    const err = await errorOf(readAll(file('none.json', '{"id": 1, "name": "x"}')));
    expect(err.message).toContain('a JSON object without an array of items');
  });
});

describe('JSON roots through the CLI', () => {
  const deal = (id: string) => ({
    externalId: id,
    title: 'T',
    ownerExternalId: 'o',
    agentExternalId: 'o',
    isWon: false,
    amount: { value: '1', currency: 'USD' },
  });

  it('items in the API shape under "data" need no profile: validate exits 0', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const path = file('deals.json', JSON.stringify({ success: true, data: [deal('D-1'), deal('D-2')], additional_data: { pagination: {} } }));
    const r = await runCli(['validate', path, '--resource', 'deal']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('OK: all 2 rows valid.');
  });

  it('--root picks one of two arrays; a pointer without "/" is a usage error naming the flag', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const path = file('two-deals.json', JSON.stringify({ records: [deal('D-1')], errors: [{ message: 'x' }] }));
    const chosen = await runCli(['validate', path, '--resource', 'deal', '--root', '/records']);
    expect(chosen.code).toBe(0);
    const bad = await runCli(['validate', path, '--resource', 'deal', '--root', 'records']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--root takes a JSON pointer');
  });
  it.each(['simple', 'fast'])('--root /pages/0/items (an array index) reads the first page on the %s engine (issue 36 row 9)', async (engine) => {
    const { runCli } = await import('../helpers/cli.js');
    const path = file(`paged-${engine}.json`, JSON.stringify({ pages: [{ items: [deal('D-1'), deal('D-2')] }, { items: [deal('D-3')] }] }));
    const r = await runCli(['validate', path, '--resource', 'deal', '--engine', engine, '--root', '/pages/0/items']);
    expect(r.stderr).not.toContain('an array at');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('OK: all 2 rows valid.');
  });
});
