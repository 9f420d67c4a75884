// The errors CSV fed back to push must read as the original export: same items from the same profile.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SandboxHandle } from '../../src/sandbox/index.js';
import { ANSWER_STYLES_UNDER_TEST, sandboxPerFile } from '../helpers/sandbox.js';
import { runCli, tempFiles } from '../helpers/cli.js';

const KEY = 'roundtrip-key-0123456789';
let _sandbox: SandboxHandle;
let env: Record<string, string>;
describe.each(ANSWER_STYLES_UNDER_TEST)('answers $style', ({ style, args: answerArgs }) => {
  sandboxPerFile(
    KEY,
    (s, e) => {
      _sandbox = s;
      env = e;
    },
    { reset: true, answers: style },
  );

  /** The items validate emits for a file read through a profile. */
  async function items(file: string, profile: string, dir: string, flags: string[] = []): Promise<unknown[]> {
    const out = join(dir, `emit-${Math.random().toString(36).slice(2)}.ndjson`);
    const r = await runCli(['validate', ...flags, '--profile', profile, '--emit', out, file]);
    expect(r.stderr).not.toMatch(/^error/m);
    return readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((l) => JSON.parse(l).items);
  }

  /** Pushes with no sales profiles on the server: every deal is rejected (unknown owner) and lands in the errors CSV. */
  async function roundTrip(csv: string | Buffer, profile: object, flags: string[] = []) {
    const dir = tempFiles({ 'deals.csv': csv, 'deals.profile.json': JSON.stringify(profile) });
    const errors = join(dir, 'failed.csv');
    const r = await runCli(['push', ...answerArgs, ...flags, '--profile', join(dir, 'deals.profile.json'), '--errors', errors, join(dir, 'deals.csv')], env);
    expect(r.code).toBe(1);
    const original = await items(join(dir, 'deals.csv'), join(dir, 'deals.profile.json'), dir, flags);
    const fedBack = await items(errors, join(dir, 'deals.profile.json'), dir, flags);
    return { original, fedBack, errorsText: readFileSync(errors, 'utf8') };
  }

  const base = (fields: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    resource: 'deal',
    fields: {
      title: 'Name',
      ownerExternalId: { const: 'nobody' },
      agentExternalId: { const: 'nobody' },
      isWon: { const: false },
      'amount.value': 'Amount',
      'amount.currency': { const: 'USD' },
      ...fields,
    },
    ...extra,
  });

  test('a column whose name starts with @ (or = + -) keeps its name in the errors CSV', async () => {
    const csv = '@id,Name,Amount\nD-1,First,10\nD-2,Second,20\n';
    const { original, fedBack, errorsText } = await roundTrip(csv, base({ externalId: '@id' }));
    expect(original).toHaveLength(2);
    // the header cell is guarded like any cell in the file, and the guard comes off when it is read back
    expect(errorsText.split('\n')[0]).toMatch(/^\uFEFF'@id,/);
    expect(fedBack).toEqual(original);
  });

  test('an export with title rows above the header (profile reader.headerRow) reads back', async () => {
    const csv = 'Sales report\n\nId,Name,Amount\nD-1,First,10\nD-2,Second,20\n';
    const profile = base({ externalId: 'Id' }, { reader: { headerRow: 3 } });
    const { original, fedBack } = await roundTrip(csv, profile);
    expect(original).toHaveLength(2);
    expect(fedBack).toEqual(original);
  });

  test('a Windows-1252 ; export with formula-like, quoted and empty cells reads back', async () => {
    const text = 'Código;Nombre;Monto;Nota\r\nD-1;"=HYPERLINK(""x"")";1.234,50;-\r\nD-2;Peña; ;+56 9 1234\r\nD-3;"a;b";-12,5;\'=x\r\nD-4;@SUM;0;\r\n';
    const csv = Buffer.from(text, 'latin1');
    const profile = base(
      { externalId: 'Código', title: 'Nombre', 'amount.value': { column: 'Monto', default: '0' } },
      { reader: { delimiter: ';', encoding: 'windows-1252' }, decimal: ',', customFields: [{ key: 'nota', name: 'Nota', type: 'string', column: 'Nota' }] },
    );
    const { original, fedBack } = await roundTrip(csv, profile);
    expect(original).toHaveLength(4);
    expect(fedBack).toEqual(original);
  });
});
