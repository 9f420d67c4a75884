// Issue 26 item 4: the JSON Schemas of the two files a user writes by hand, the sync plan
// (batch-sync.config.json) and a mapping profile (*.profile.json), printed by `batch-sync schema
// plan|profile` from the zod schemas the loaders use, committed under schemas/ (the copy an editor
// reads through `$schema`) and shipped in the package. A change to the loaders' schemas that is not
// regenerated into schemas/ fails here: `node bin/batch-sync.js schema profile > schemas/profile.schema.json`.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, spawnCli } from '../helpers/cli.js';

const ROOT = resolve(__dirname, '../..');
const FILES = { plan: 'batch-sync.config.schema.json', profile: 'profile.schema.json' } as const;

describe('batch-sync schema plan|profile', () => {
  test('prints the JSON Schema (draft 2020-12) of each file, with the help of each field as its description', async () => {
    const plan = await spawnCli(['schema', 'plan']);
    expect(plan.code, plan.stderr).toBe(0);
    const planSchema = JSON.parse(plan.stdout);
    expect(planSchema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(planSchema.title).toBe('batch-sync sync plan (batch-sync.config.json)');
    expect(planSchema.required).toEqual(['jobs']);
    expect(planSchema.properties.defaults.properties.batchSize).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 10000,
      description: 'items per batch (default 100)',
    });
    expect(planSchema.properties.jobs.items.properties.reader.properties.root.description).toMatch(/^JSON: where the items are, as a JSON pointer/);

    const profile = await spawnCli(['schema', 'profile']);
    expect(profile.code, profile.stderr).toBe(0);
    const profileSchema = JSON.parse(profile.stdout);
    expect(profileSchema.title).toBe('batch-sync mapping profile (*.profile.json)');
    expect(profileSchema.required).toEqual(['resource', 'fields']);
    for (const key of ['resource', 'method', 'reader', 'timeZone', 'decimal', 'dateFormat', 'skipIf', 'fields', 'customFields'])
      expect(profileSchema.properties[key].description, key).toMatch(/\w/);
    // what a user may write, not what zod turns it into: a field as a bare column name, `column` as a name or a list
    const field = profileSchema.properties.fields.additionalProperties;
    expect(field.anyOf.map((f: { type: string }) => f.type)).toEqual(['string', 'object']);
    const spec = field.anyOf[1];
    expect(spec.properties.column.anyOf.map((f: { type: string }) => f.type)).toEqual(['string', 'array']);
    for (const key of ['lookup', 'replace', 'rowHash']) expect(spec.properties[key].description, key).toMatch(/\w/);
    expect(spec.properties.lookup.properties.reader.properties.root.type).toBe('string');
  });

  test('the resource form still works, and --help lists every schema it prints', async () => {
    const deal = await runCli(['schema', 'deal', '--method', 'patch']);
    expect(deal.code).toBe(0);
    expect(JSON.parse(deal.stdout).title).toBe('deal item (PATCH)');
    const help = await runCli(['schema', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/\n {2}what\s+plan \(batch-sync\.config\.json\), profile \(\*\.profile\.json\),\s+or\s+an item kind: sales-profile/);
    const wrong = await runCli(['schema', 'plan', '--method', 'patch']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.split('\n')[0]).toBe('error: --method chooses the item shape of a resource; the plan has one schema');
    const unknown = await runCli(['schema', 'plans']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error: unknown schema "plans"');
  });

  test('schemas/ holds exactly what the command prints, byte for byte (regenerate it when a loader changes)', async () => {
    for (const [what, file] of Object.entries(FILES)) {
      const printed = await runCli(['schema', what]);
      expect(printed.code).toBe(0);
      const committed = readFileSync(join(ROOT, 'schemas', file), 'utf8');
      expect(committed, `schemas/${file} is stale: node bin/batch-sync.js schema ${what} > schemas/${file}`).toBe(`${printed.stdout}\n`);
    }
  });

  test('the package ships schemas/, so an installed copy has them', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('schemas');
  });
});
