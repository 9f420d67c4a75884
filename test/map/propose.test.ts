import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/main.js';
import { createMapper, parseProfile, proposeProfile } from '../../src/map/index.js';
import { memoryOutput } from '../../src/report/output.js';
import { idLikeHeader } from '../../src/map/propose/synonyms.js';
import { contractProblems, rowsFromCsv, rowsFromFile } from './helpers.js';

const CRM = resolve(__dirname, '../../fixtures/outside/crm-sales-opportunities');

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
    expect(f['amount.value']).toEqual({ column: 'Monto', default: '0' }); // issue 25: one open deal has no amount
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
    const csv =
      'Código do negócio;Título;Responsável;Valor;Moeda;Data de fechamento;Fase;Comissão\n' +
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
    // issue 25: no column is an id, so the id is made from the row's content
    expect(f.externalId).toEqual({ rowHash: true });
    expect(p.fillIn.map((x) => x.path)).toEqual(expect.arrayContaining(['fields.amount.currency.const', 'fields.isWon.const']));
  });

  test('crm-sales-opportunities pipeline: agent serves as owner; one placeholder; then every sample row maps', () => {
    const s = sample(`${CRM}/sales_pipeline.csv`);
    const p = proposeProfile({ resource: 'deal', ...s });
    const f = fieldsOf(p);
    expect(f.externalId!.column).toBe('opportunity_id');
    expect(f.agentExternalId).toEqual({ column: 'sales_agent', transform: 'slug' });
    expect(f.ownerExternalId).toEqual({ column: 'sales_agent', transform: 'slug' });
    expect(f.isWon).toEqual({ column: 'deal_stage', map: { Won: true }, otherwise: false });
    expect(f.closeDate).toEqual({ column: 'close_date' });
    expect(p.customFields.map((c) => [c.key, c.type])).toEqual([
      ['product', 'string'],
      ['account', 'string'],
      ['engage_date', 'string'],
    ]);
    expect(p.fillIn.map((x) => x.path).sort()).toEqual(['fields.amount.currency.const', 'fields.currentStage.pipelineName.const', 'fields.title.const']);
    // the user fills in, and the profile works
    const fields = {
      ...f,
      title: { template: '{product} – {opportunity_id}' },
      'amount.currency': { const: 'USD' },
      'amount.value': { column: 'close_value', default: '0' },
      'currentStage.pipelineName': { const: 'Sales' },
    };
    const profile = parseProfile({ ...p.profile, fields }, 'p.json');
    const mapper = createMapper({ resource: 'deal', header: s.header, profile, file: 'sales_pipeline.csv' });
    const { records } = rowsFromFile(`${CRM}/sales_pipeline.csv`);
    for (const r of records.slice(0, 500)) {
      const m = mapper.map(r);
      expect(m.kind === 'item' ? contractProblems('deal', 'post', m.item) : m).toEqual([]);
    }
  });

  test('sales teams: the name column is split and slugged; e-mail left to fill in', () => {
    const p = proposeProfile({ resource: 'sales-profile', ...sample(`${CRM}/sales_teams.csv`) });
    const f = fieldsOf(p);
    expect(f['profile.firstName']).toEqual({ column: 'sales_agent', transform: 'firstName' });
    expect(f['profile.lastName']).toEqual({ column: 'sales_agent', transform: 'lastName' });
    expect(f.externalId).toEqual({ column: 'sales_agent', transform: 'slug' });
    expect(p.fillIn.map((x) => x.path)).toEqual(['fields.email.template']);
    expect(p.customFields.map((c) => c.key)).toEqual(['manager', 'regional_office']);
  });

  test('accounts: typed custom fields, type COMPANY by default', () => {
    const p = proposeProfile({ resource: 'account', ...sample(`${CRM}/accounts.csv`) });
    expect(fieldsOf(p).name).toEqual({ column: 'account' });
    expect(fieldsOf(p).type).toEqual({ const: 'COMPANY' });
    expect(p.customFields.map((c) => `${c.key}:${c.type}`)).toEqual([
      'sector:string',
      'year_established:number',
      'revenue:number',
      'employees:number',
      'office_location:string',
      'subsidiary_of:string',
    ]);
  });
});

// issue 15 items 3–5: what init proposes for seller codes and a Spanish id column
describe('init proposals: codes stay codes, id columns are found', () => {
  const deals = (owner: string[], agent = owner) => {
    const rows = owner.map((o, i) => `OP-${i + 1};Venta ${i + 1};${o};${agent[i]};1.234,56;CLP;15/03/2024;Cerrada ganada`).join('\n');
    const { header, records } = rowsFromCsv(`Código;Título;Vendedor;Agente;Monto;Moneda;Fecha de cierre;Etapa\n${rows}\n`, 'ventas.csv', ';');
    return proposeProfile({ resource: 'deal', header, rows: records.map((r) => r.row) });
  };

  test('seller codes (V-001, AB-12) are kept as they are: no slug, and the note says why', () => {
    const p = deals(['V-001', 'V-002', 'AB-12'], ['V-003', 'V-001', 'V-002']);
    const f = fieldsOf(p);
    expect(f.ownerExternalId).toEqual({ column: 'Vendedor' });
    expect(f.agentExternalId).toEqual({ column: 'Agente' });
    expect(p.notes).toContain('ownerExternalId: "Vendedor" holds codes (e.g. "V-001"), sent as they are: they must equal the sales profiles\' externalId');
  });

  test("people's names (letters and spaces, several words) are slugged, and the note says why", () => {
    const p = deals(['José Peña', 'Ana María Souza', 'Bruno Díaz']);
    expect(fieldsOf(p).ownerExternalId).toEqual({ column: 'Vendedor', transform: 'slug' });
    expect(p.notes).toContain(
      'ownerExternalId: "Vendedor" holds people\'s names (letters and spaces, several words, e.g. "José Peña"); the id is their slug ("jose-pena"), and the sales profiles\' externalId must be derived the same way',
    );
  });

  test('single capitalised words or user names are not names: kept as they are', () => {
    expect(fieldsOf(deals(['JPEREZ', 'Ana', 'mlopez'])).ownerExternalId).toEqual({ column: 'Vendedor' });
  });

  test.each(['ID Vendedor', 'Vendedor ID', 'Seller ID', 'Código Vendedor', 'Cod. Vendedor', 'Usuario ID', 'ID Usuario', 'Código', 'Code', 'ID do Vendedor'])(
    'sales profiles: "%s" is the id column, not the e-mail',
    (idColumn) => {
      const { header, records } = rowsFromCsv(
        `${idColumn};Nombre;Apellido;Correo electrónico;Región\nV-001;José;Peña;jose@x.example.com;Norte\nV-002;Ana;Souza;ana@x.example.com;Sur\n`,
        'vendedores.csv',
        ';',
      );
      const p = proposeProfile({ resource: 'sales-profile', header, rows: records.map((r) => r.row) });
      expect(fieldsOf(p).externalId).toEqual({ column: idColumn });
      expect(fieldsOf(p).email).toEqual({ column: 'Correo electrónico' });
      expect(p.customFields.map((c) => c.column)).toEqual(['Región']);
    },
  );

  test('sales profiles: an id column no synonym names is found by its values (unique, code-like), and the note says why', () => {
    const { header, records } = rowsFromCsv(
      'Clave;Nombre;Apellido;Correo;Zona\nV-001;José;Peña;jose@x.example.com;Norte\nV-002;Ana;Souza;ana@x.example.com;Norte\nV-003;Luis;Díaz;luis@x.example.com;Sur\n',
      'v.csv',
      ';',
    );
    const p = proposeProfile({ resource: 'sales-profile', header, rows: records.map((r) => r.row) });
    expect(fieldsOf(p).externalId).toEqual({ column: 'Clave' });
    expect(p.notes).toContain('externalId: "Clave" holds unique codes (e.g. "V-001"): it is taken as the id; deals must name owners by it');
    expect(p.customFields.map((c) => c.column)).toEqual(['Zona']);
  });

  test('a header is id-like by a whole word: a phone number, a language or a paid flag is not an id', () => {
    for (const h of [
      'ID Vendedor',
      'Vendedor ID',
      'IDVendedor',
      'seller_id',
      'SellerCode',
      'Código Vendedor',
      'Cod. Sucursal',
      'Nro Vendedor',
      'Customer Code',
    ])
      expect(idLikeHeader(h), h).toBe(true);
    for (const h of ['Número de teléfono', 'Numero Celular', 'Idioma', 'Idade', 'Paid', 'Valid', 'Video', 'Codec', 'Zona'])
      expect(idLikeHeader(h), h).toBe(false);
    // with no id column, unique phone numbers are not taken for the id: the e-mail is, as the last resort
    const { header, records } = rowsFromCsv(
      'Nombre;Apellido;Correo;Número de teléfono\nJosé;Peña;jose@x.example.com;+56 9 1111 1111\nAna;Souza;ana@x.example.com;+56 9 2222 2222\n',
      'v.csv',
      ';',
    );
    expect(fieldsOf(proposeProfile({ resource: 'sales-profile', header, rows: records.map((r) => r.row) })).externalId).not.toEqual({
      column: 'Número de teléfono',
    });
  });

  test("deals: an id column of the seller is the owner, not the deal's own id", () => {
    const { header, records } = rowsFromCsv(
      'Código;Título;ID Vendedor;Monto;Moneda;Fecha de cierre;Etapa\nOP-1;Uno;V-001;10;CLP;15/03/2024;Ganada\n',
      'd.csv',
      ';',
    );
    const f = fieldsOf(proposeProfile({ resource: 'deal', header, rows: records.map((r) => r.row) }));
    expect(f.externalId).toEqual({ column: 'Código' });
    expect(f.ownerExternalId).toEqual({ column: 'ID Vendedor' });
  });

  test('a column is proposed as a number only when every sample value is a number', () => {
    const { header, records } = rowsFromCsv(
      'ID;Nombre;Ref;Lote;Cuota\n1;Ana Souza;V-001;7;1.500,5\n2;Bruno Díaz;AB-12;Lote 7;2.000\n3;Carla Ruiz;SKU-0042;8;10\n',
      'x.csv',
      ';',
    );
    const p = proposeProfile({ resource: 'account', header, rows: records.map((r) => r.row) });
    expect(p.customFields.map((c) => `${c.column}:${c.type}`)).toEqual(['Ref:string', 'Lote:string', 'Cuota:number']);
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
    expect(
      await main(['node', 'batch-sync', 'init', 'fixtures/es-excel/oportunidades.csv', '--resource', 'deal', '--out', out, '--force'], memoryOutput()),
    ).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/"resource": "deal"/);
  });
  // issue 15 item 6: several files at once, a plan that ties them, owners checked across files
  const exportDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'init-many-'));
    for (const f of ['vendedores.csv', 'ventas.csv']) copyFileSync(join('fixtures/es-vendedores', f), join(dir, f));
    return dir;
  };
  test('init a.csv b.csv: one profile per file beside it, a sync plan in dependency order, owners checked, one command to push', async () => {
    const dir = exportDir();
    const o = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', join(dir, 'ventas.csv'), join(dir, 'vendedores.csv')], o)).toBe(0);
    const sales = JSON.parse(readFileSync(join(dir, 'vendedores.profile.json'), 'utf8'));
    const deals = JSON.parse(readFileSync(join(dir, 'ventas.profile.json'), 'utf8'));
    expect(sales).toMatchObject({ resource: 'sales-profile', fields: { externalId: { column: 'ID Vendedor' }, email: { column: 'Correo electrónico' } } });
    expect(deals).toMatchObject({ resource: 'deal', decimal: ',', fields: { ownerExternalId: { column: 'Vendedor' }, agentExternalId: { column: 'Agente' } } });
    const plan = JSON.parse(readFileSync(join(dir, 'batch-sync.config.json'), 'utf8'));
    expect(plan).toEqual({
      jobs: [
        { file: 'vendedores.csv', resource: 'sales-profile', profile: 'vendedores.profile.json' },
        { file: 'ventas.csv', resource: 'deal', profile: 'ventas.profile.json' },
      ],
    });
    const text = o.stdout.join('\n');
    expect(text).toContain(`${join(dir, 'vendedores.csv')}: sales-profile (from its file name ("vendedores"))`);
    expect(text).toContain('owners: all 12 distinct owner/agent ids of ventas.csv are among the ids of vendedores.csv');
    expect(text).toContain(`wrote ${join(dir, 'batch-sync.config.json')}: sales-profile ${join(dir, 'vendedores.csv')}, then deal ${join(dir, 'ventas.csv')}`);
    expect(text).toMatch(/fill in before use[\s\S]*ventas\.profile\.json: fields\.currentStage\.pipelineName\.const/);
    expect(o.stdout.at(-1)).toBe(
      `\nnext (after filling in): ./bin/batch-sync.js push --config ${join(dir, 'batch-sync.config.json')}   (try it on the embedded sandbox first: add --sandbox)`,
    );
  });
  test('init a.csv b.csv: owner values missing from the proposed sales-profile ids are counted, with examples', async () => {
    const dir = exportDir();
    const lines = readFileSync(join(dir, 'vendedores.csv'), 'latin1').split('\r\n');
    writeFileSync(join(dir, 'vendedores.csv'), lines.filter((l) => !/^V-01[12];/.test(l)).join('\r\n'), 'latin1');
    const o = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', join(dir, 'vendedores.csv'), join(dir, 'ventas.csv')], o)).toBe(0);
    expect(o.stdout.join('\n')).toContain('owners: 2 of 12 distinct owner/agent ids of ventas.csv are not among the ids of vendedores.csv: "V-012", "V-011"');
  });
  test('init of several files: FILE:KIND names a kind init cannot guess; an unguessable file is a usage error naming it', async () => {
    const dir = exportDir();
    writeFileSync(join(dir, 'misc.csv'), 'a;b\n1;2\n');
    const o = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', join(dir, 'vendedores.csv'), join(dir, 'misc.csv')], o)).toBe(2);
    const err = o.stderr.join('\n');
    expect(err).toContain(`cannot tell which resource ${join(dir, 'misc.csv')} holds`);
    expect(err).toContain(`${join(dir, 'misc.csv')}:<kind>`);
    expect(existsSync(join(dir, 'batch-sync.config.json'))).toBe(false);
    const ok = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', join(dir, 'vendedores.csv'), `${join(dir, 'misc.csv')}:account`], ok)).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'batch-sync.config.json'), 'utf8')).jobs.map((j: { resource: string }) => j.resource)).toEqual([
      'sales-profile',
      'account',
    ]);
    expect(ok.stdout.join('\n')).toContain('owners: no deal or activity file among them');
  });
  test('init of one file without --resource: its kind from its name, a plan like several files; unknown kind: exit 2 naming FILE:KIND; --out is refused with several files', async () => {
    const dir = exportDir();
    const o = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', join(dir, 'ventas.csv')], o)).toBe(0);
    expect(o.stdout.join('\n')).toContain(`${join(dir, 'ventas.csv')}: deal (from its file name ("ventas"))`);
    expect(existsSync(join(dir, 'batch-sync.config.json'))).toBe(true);
    writeFileSync(join(dir, 'misc.csv'), 'a;b\n1;2\n');
    const unknown = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', join(dir, 'misc.csv')], unknown)).toBe(2);
    expect(unknown.stderr.join('\n')).toContain(`cannot tell which resource ${join(dir, 'misc.csv')} holds`);
    expect(unknown.stderr.join('\n')).toContain(`${join(dir, 'misc.csv')}:<kind>`);
    const many = memoryOutput();
    expect(
      await main(
        ['node', 'batch-sync', 'init', 'fixtures/es-vendedores/ventas.csv', 'fixtures/es-vendedores/vendedores.csv', '--out', join(tmpdir(), 'x.json')],
        many,
      ),
    ).toBe(2);
    expect(many.stderr.join('\n')).toContain('--out names one profile');
  });
  test('init of two files whose profiles would be the same file (deals.csv and deals.json) is refused before anything is written', async () => {
    const dir = exportDir();
    copyFileSync(join(dir, 'ventas.csv'), join(dir, 'ventas.json'));
    const o = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', `${join(dir, 'ventas.csv')}:deal`, `${join(dir, 'ventas.json')}:deal`, '--force'], o)).toBe(2);
    const err = o.stderr.join('\n');
    expect(err).toContain(`${join(dir, 'ventas.csv')} and ${join(dir, 'ventas.json')} would both write ${join(dir, 'ventas.profile.json')}`);
    expect(existsSync(join(dir, 'ventas.profile.json'))).toBe(false);
    expect(existsSync(join(dir, 'batch-sync.config.json'))).toBe(false);
  });
  test("init's options come from its table: the reader flags validate and push have, and a bad --sample named in one line", async () => {
    const help = memoryOutput();
    await main(['node', 'batch-sync', 'init', '--help'], help).catch(() => undefined);
    const text = help.stdout.join('\n');
    for (const flag of ['--delimiter', '--encoding', '--header-row', '--escape', '--max-record-bytes', '--sample', '--method']) expect(text).toContain(flag);
    const bad = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', 'fixtures/es-vendedores/ventas.csv', '--resource', 'deal', '--sample', '0'], bad)).toBe(2);
    expect(bad.stderr.join('\n')).toContain('--sample takes at least 1 row');
  });
  test('a missing file is an input error (exit 2)', async () => {
    const o = memoryOutput();
    expect(await main(['node', 'batch-sync', 'init', 'no/such.csv', '--resource', 'deal', '--out', join(tmpdir(), 'x.json')], o)).toBe(2);
  });
});
