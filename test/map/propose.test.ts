import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/main.js';
import { createMapper, parseProfile, proposeProfile } from '../../src/map/index.js';
import { memoryOutput } from '../../src/report/output.js';
import { contractProblems, rowsFromCsv, rowsFromFile } from './helpers.js';

const sample = (path: string, opts?: { delimiter?: string; encoding?: string }) => {
  const { header, records } = rowsFromFile(path, opts);
  return { header, rows: records.slice(0, 200).map((r) => r.row) };
};
const fieldsOf = (p: ReturnType<typeof proposeProfile>) => p.profile.fields as Record<string, Record<string, unknown>>;

describe('init proposals', () => {
  test('Spanish headers of the Excel export', () => {
    const p = proposeProfile({ resource: 'deal', ...sample('fixtures/es-excel/oportunidades.csv', { delimiter: ';', encoding: 'windows-1252' }) });
    const f = fieldsOf(p);
    expect(f.externalId).toEqual({ column: 'Código' });
    expect(f.title).toEqual({ column: 'Oportunidad' });
    expect(f.ownerExternalId).toEqual({ column: 'Vendedor', transform: 'slug' });
    expect(f.agentExternalId).toEqual({ column: 'Vendedor', transform: 'slug' });
    expect(f['amount.value']).toEqual({ column: 'Monto' });
    // the export has a `clp` among its codes: ISO-4217 wants them upper case
    expect(f['amount.currency']).toEqual({ column: 'Moneda', transform: 'upper' });
    expect(p.notes).toContain('amount.currency: "Moneda" has lower-case codes in the sample; they are upper-cased (ISO-4217)');
    expect(f.closeDate).toEqual({ column: 'Fecha de cierre', format: 'DD/MM/YYYY' });
    expect(f['currentStage.value']).toEqual({ column: 'Etapa' });
    expect(f.isWon).toEqual({ column: 'Etapa', map: { Ganado: true, 'Cerrado ganado': true }, otherwise: false });
    expect(p.profile.decimal).toBe(',');
    expect(p.customFields.map((c) => c.column)).toEqual(['Cliente', 'Observación']);
    expect(p.fillIn.map((x) => x.path)).toEqual(['fields.currentStage.pipelineName.const']);
  });

  test('Portuguese headers, and a date column that fits both DD/MM and MM/DD is flagged', () => {
    const csv = 'Código do negócio;Título;Responsável;Valor;Moeda;Data de fechamento;Fase;Comissão\n' +
      'N-1;Plano anual;Ana Souza;R$ 1.500,00;BRL;03/04/2024;Ganho;10,5\nN-2;Suporte;Bruno Díaz;R$ 800,00;BRL;05/06/2024;Perdido;0\n';
    const { header, records } = rowsFromCsv(csv, 'negocios.csv', ';');
    const p = proposeProfile({ resource: 'deal', header, rows: records.map((r) => r.row) });
    const f = fieldsOf(p);
    expect(f.externalId!.column).toBe('Código do negócio');
    expect(f.title!.column).toBe('Título');
    expect(f.ownerExternalId!.column).toBe('Responsável');
    expect(f['amount.value']!.column).toBe('Valor');
    expect(f['amount.currency']!.column).toBe('Moeda');
    expect(f['currentStage.value']!.column).toBe('Fase');
    expect(f.closeDate).toEqual({ column: 'Data de fechamento', format: '<FILL IN: DD/MM/YYYY or MM/DD/YYYY>' });
    expect(p.fillIn).toContainEqual({ path: 'fields.closeDate.format', reason: 'every date in "Data de fechamento" fits both DD/MM/YYYY and MM/DD/YYYY' });
    expect(p.customFields).toEqual([{ column: 'Comissão', key: 'comissao', type: 'number' }]);
    expect(() => parseProfile(p.profile, 'negocios.profile.json')).toThrow(/fields\.closeDate\.format: <FILL IN: DD\/MM\/YYYY or MM\/DD\/YYYY> — left by init/);
  });

  test('English synonyms and a missing required field as a placeholder', () => {
    const { header, records } = rowsFromCsv('Deal Name,Owner,Amount,Close Date\nBig one,Ana Souza,"1,500.25",03/25/2024\n');
    const p = proposeProfile({ resource: 'deal', header, rows: records.map((r) => r.row) });
    const f = fieldsOf(p);
    expect(f.title!.column).toBe('Deal Name');
    expect(f.closeDate!.format).toBe('MM/DD/YYYY');
    expect(p.profile.decimal).toBe('.');
    expect(f.externalId).toEqual({ const: '<FILL IN: value or column for externalId>' });
    expect(p.fillIn.map((x) => x.path)).toEqual(expect.arrayContaining(['fields.externalId.const', 'fields.amount.currency.const', 'fields.isWon.const']));
  });

  test('crm-sales-opportunities pipeline: agent serves as owner; one placeholder; then every sample row maps', () => {
    const s = sample('/work/shared/datasets/crm-sales-opportunities/sales_pipeline.csv');
    const p = proposeProfile({ resource: 'deal', ...s });
    const f = fieldsOf(p);
    expect(f.externalId!.column).toBe('opportunity_id');
    expect(f.agentExternalId).toEqual({ column: 'sales_agent', transform: 'slug' });
    expect(f.ownerExternalId).toEqual({ column: 'sales_agent', transform: 'slug' });
    expect(f.isWon).toEqual({ column: 'deal_stage', map: { Won: true }, otherwise: false });
    expect(f.closeDate).toEqual({ column: 'close_date' });
    expect(p.customFields.map((c) => [c.key, c.type])).toEqual([['product', 'string'], ['account', 'string'], ['engage_date', 'string']]);
    expect(p.fillIn.map((x) => x.path).sort()).toEqual(['fields.amount.currency.const', 'fields.currentStage.pipelineName.const', 'fields.title.const']);
    // the user fills in, and the profile works
    const fields = { ...f, title: { template: '{product} – {opportunity_id}' }, 'amount.currency': { const: 'USD' }, 'amount.value': { column: 'close_value', default: '0' }, 'currentStage.pipelineName': { const: 'Sales' } };
    const profile = parseProfile({ ...p.profile, fields }, 'p.json');
    const mapper = createMapper({ resource: 'deal', header: s.header, profile, file: 'sales_pipeline.csv' });
    const { records } = rowsFromFile('/work/shared/datasets/crm-sales-opportunities/sales_pipeline.csv');
    for (const r of records.slice(0, 500)) {
      const m = mapper.map(r);
      expect(m.kind === 'item' ? contractProblems('deal', 'post', m.item) : m).toEqual([]);
    }
  });

  test('sales teams: the name column is split and slugged; e-mail left to fill in', () => {
    const p = proposeProfile({ resource: 'sales-profile', ...sample('/work/shared/datasets/crm-sales-opportunities/sales_teams.csv') });
    const f = fieldsOf(p);
    expect(f['profile.firstName']).toEqual({ column: 'sales_agent', transform: 'firstName' });
    expect(f['profile.lastName']).toEqual({ column: 'sales_agent', transform: 'lastName' });
    expect(f.externalId).toEqual({ column: 'sales_agent', transform: 'slug' });
    expect(p.fillIn.map((x) => x.path)).toEqual(['fields.email.template']);
    expect(p.customFields.map((c) => c.key)).toEqual(['manager', 'regional_office']);
  });

  test('accounts: typed custom fields, type COMPANY by default', () => {
    const p = proposeProfile({ resource: 'account', ...sample('/work/shared/datasets/crm-sales-opportunities/accounts.csv') });
    expect(fieldsOf(p).name).toEqual({ column: 'account' });
    expect(fieldsOf(p).type).toEqual({ const: 'COMPANY' });
    expect(p.customFields.map((c) => `${c.key}:${c.type}`)).toEqual([
      'sector:string', 'year_established:number', 'revenue:number', 'employees:number', 'office_location:string', 'subsidiary_of:string',
    ]);
  });
});

describe('batch-sync init', () => {
  test('writes the profile, prints what it did, refuses to overwrite without --force', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'init-'));
    const out = join(dir, 'deals.profile.json');
    const o = memoryOutput();
    const code = await main(['node', 'batch-sync', 'init', 'fixtures/es-excel/oportunidades.csv', '--resource', 'deals', '--out', out], o);
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written).toMatchObject({ resource: 'deal', reader: { delimiter: ';' }, decimal: ',' });
    expect(written.reader.encoding).toMatch(/1252|latin1/i);
    const text = o.stdout.join('\n');
    expect(text).toMatch(/title\s+← "Oportunidad"/);
    expect(text).toMatch(/fill in before use/);
    expect(text).toMatch(/fields\.currentStage\.pipelineName\.const/);

    const again = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', 'fixtures/es-excel/oportunidades.csv', '--resource', 'deal', '--out', out], again)).toBe(2);
    expect(again.stderr.join('\n')).toMatch(/already exists[\s\S]*--force/);
    writeFileSync(out, '{}');
    expect(await main(['node', 'batch-sync', 'init', 'fixtures/es-excel/oportunidades.csv', '--resource', 'deal', '--out', out, '--force'], memoryOutput())).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/"resource": "deal"/);
  });
  test('a missing file is an input error (exit 2)', async () => {
    const o = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', 'no/such.csv', '--resource', 'deal', '--out', join(tmpdir(), 'x.json')], o)).toBe(2);
  });
});
