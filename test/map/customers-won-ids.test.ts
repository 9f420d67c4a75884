// Issue 33 items 3–5, on the pure functions: customers are not sellers (a contacts/people/leads file
// is customer records; a person's header alone is no evidence of sellers; the deals' owner column
// pointing at a file is), won and lost from the export's own words (a status column before a won
// date; a won date as "filled is won"), and ids stay text (named like an id, or holding another
// file's ids).
import { describe, expect, test } from 'vitest';
import { decideKinds, targetOf, type Sampled } from '../../src/commands/init-sample.js';
import { createMapper, parseProfile, proposeProfile } from '../../src/map/index.js';
import { keepReferencesText } from '../../src/map/propose/cross-proposals.js';
import { ownersPointAt } from '../../src/map/propose/customers.js';
import { guessResource } from '../../src/map/propose/guess-resource.js';
import { namesAnId } from '../../src/map/propose/ids.js';
import { dealStatusMap } from '../../src/map/propose/value-maps.js';
import { row, rowsFromCsv } from './helpers.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const PIPEDRIVE_PEOPLE = ['ID', 'Nome', 'Telefone', 'E-mail', 'Cargo', 'Sobrenome', 'Organização', 'Organização - ID', 'Proprietário'];
const HUBSPOT_CONTACTS = ['contact_id', 'first_name', 'last_name', 'email', 'jobtitle', 'company_id'];

describe('customers are not sellers', () => {
  test.each([
    ['pessoas.csv', PIPEDRIVE_PEOPLE],
    ['people-4521-2024.csv', PIPEDRIVE_PEOPLE],
    ['hubspot_contacts.csv', HUBSPOT_CONTACTS],
    ['Contact.csv', ['Id', 'FirstName', 'LastName', 'Email', 'Title']],
    ['Leads.csv', ['Id', 'FirstName', 'LastName', 'Company', 'Status']],
    ['contactos.xlsx', ['Nombre', 'Apellido', 'Correo', 'Teléfono']],
    ['contatos.csv', ['Nome', 'Sobrenome', 'E-mail']],
    ['persons.json', ['id', 'name', 'email']],
  ])('%s holds customer records, not a kind of the API', (file, header) => {
    const g = guessResource(header, file);
    expect(g.resource).toBeUndefined();
    expect(g.customers).toMatch(/^customer contacts \(/);
    expect(g.reason).toMatch(/^from its file name/);
  });

  test('a person’s header alone (names, e-mail, job title) is a contact’s: the columns are named', () => {
    expect(guessResource(['Nome', 'Telefone', 'E-mail', 'Cargo', 'Sobrenome', 'Organização - ID'], 'export-3.csv')).toMatchObject({
      customers: 'customer contacts (Nome, Telefone, E-mail)',
    });
    expect(guessResource(['first_name', 'last_name', 'email', 'jobtitle'], 'export.csv')).toMatchObject({
      customers: 'customer contacts (first_name, last_name, email)',
    });
  });

  test('Pipedrive names each column after its object (`Pessoa - Nome`): the object most columns name is the kind', () => {
    const people = ['Pessoa - ID', 'Pessoa - Nome', 'Pessoa - Telefone', 'Pessoa - E-mail', 'Pessoa - Cargo', 'Organização - ID', 'Organização - Nome'];
    expect(guessResource(people, 'export-2.csv')).toMatchObject({
      customers: 'customer contacts (Pessoa - Nome, Pessoa - Telefone, Pessoa - E-mail)',
      reason: 'its columns are named "Pessoa - …"',
    });
    const deals = ['Negócio - ID', 'Negócio - Título', 'Negócio - Valor', 'Negócio - Status', 'Organização - ID', 'Pessoa - Nome'];
    expect(guessResource(deals, 'export-1.csv')).toMatchObject({ resource: 'deal', reason: 'its columns are named "Negócio - …"' });
  });

  test('sellers need evidence: the file name or a seller’s header (a login, a role, a manager)', () => {
    expect(guessResource(['first_name', 'last_name', 'email', 'jobtitle'], 'users.csv').resource).toBe('sales-profile');
    expect(guessResource(['Nome', 'Sobrenome', 'E-mail'], 'vendedores.csv').resource).toBe('sales-profile');
    expect(guessResource(['First Name', 'Last Name', 'Email', 'Username', 'Role'], 'export.csv').resource).toBe('sales-profile');
    // Odoo's crm.lead is a deal: the pair of words is read before "lead"
    expect(guessResource(['name', 'expected_revenue'], 'crm.lead.csv').resource).toBe('deal');
    expect(guessResource(['Id', 'Name'], 'x.json', [{ 'attributes.type': 'Contact' }])).toMatchObject({ customers: expect.any(String) });
  });

  test('people the deals’ owner column points at are sellers; their own owner column proves nothing', () => {
    const deals = { file: 'deals.csv', header: ['Title', 'Owner', 'Amount'], rows: [{ Owner: 'u-7' }, { Owner: 'u-9' }, { Owner: 'u-7' }] };
    const people = (ids: string[]) => ({
      file: 'people.csv',
      header: ['ID', 'Name', 'Owner'],
      rows: ids.map((id) => ({ ID: id, Name: `P ${id}`, Owner: 'u-7' })),
    });
    expect(ownersPointAt([deals], people(['u-7', 'u-9', 'u-3']))).toEqual({ file: 'deals.csv', owner: 'Owner', column: 'ID', found: 2, of: 2 });
    // the people's own owner column names the same users: not the people's ids
    expect(ownersPointAt([deals], people(['c-1', 'c-2']))).toBeUndefined();
    // numeric ids meet by chance: owners 1–3 among 24 contacts are no evidence; among 6 users they are
    const numeric = { file: 'deals.csv', header: ['Title', 'Owner ID'], rows: [{ 'Owner ID': '1' }, { 'Owner ID': '2' }, { 'Owner ID': '3' }] };
    const numbered = (n: number) => ({ file: 'p.csv', header: ['ID', 'Name'], rows: range(n).map((i) => ({ ID: String(i), Name: `P${i}` })) });
    expect(ownersPointAt([numeric], numbered(24))).toBeUndefined();
    expect(ownersPointAt([numeric], numbered(6))).toMatchObject({ column: 'ID', found: 3, of: 3 });
    // names split into first and last name
    const named = { file: 'deals.csv', header: ['Title', 'Proprietário'], rows: [{ Proprietário: 'Ana Souza' }] };
    const pessoas = { file: 'pessoas.csv', header: ['Nome', 'Sobrenome'], rows: [{ Nome: 'Ana', Sobrenome: 'Souza' }] };
    expect(ownersPointAt([named], pessoas)).toMatchObject({ column: 'Nome Sobrenome' });
  });

  const sampled = (file: string, header: string[], rows: Record<string, string>[] = []): Sampled => ({
    file,
    header,
    rows,
    complete: true,
    reader: {},
    warnings: [],
  });

  test('decideKinds: customer files and FILE:skip are left out, each in one line; deals pointing at people make them sellers', () => {
    const deals = sampled('negocios.csv', ['Título', 'Valor', 'Proprietário'], [{ Título: 'a', Valor: '1', Proprietário: 'Ana Souza' }]);
    const people = sampled('pessoas.csv', PIPEDRIVE_PEOPLE, [{ ID: '1', Nome: 'Carla', Sobrenome: 'Dias', Proprietário: 'Ana Souza' }]);
    const { files, leftOut } = decideKinds([deals, people], [targetOf('produtos.csv:skip', undefined)]);
    expect(files.map((f) => f.file)).toEqual(['negocios.csv']);
    expect(leftOut.map((l) => l.line)).toEqual([
      'produtos.csv: left out (produtos.csv:skip)',
      'pessoas.csv: customer contacts (Nome, Telefone, E-mail): the API has no kind for them; left out',
    ]);
    const users = sampled('pessoas.csv', PIPEDRIVE_PEOPLE, [{ ID: '1', Nome: 'Ana', Sobrenome: 'Souza', Proprietário: 'Bia Reis' }]);
    const again = decideKinds([sampled(deals.file, deals.header, deals.rows), users]);
    expect(again.leftOut).toEqual([]);
    expect(again.files[1]).toMatchObject({
      resource: 'sales-profile',
      guessed: 'the owners in "Proprietário" of negocios.csv are its "Nome Sobrenome" (1 of 1)',
    });
  });

  test('decideKinds: nothing left to map is a usage error naming why; FILE:KIND and FILE:skip parse, a file named so exists first', () => {
    expect(() => decideKinds([sampled('hubspot_contacts.csv', HUBSPOT_CONTACTS)])).toThrow(
      /nothing left to map: hubspot_contacts\.csv: customer contacts \(first_name, last_name, email\): the API has no kind for them; left out/,
    );
    // a file of no kind (products) is named with both ways out
    try {
      decideKinds([sampled('products.csv', ['SKU', 'Price'])]);
      expect.unreachable();
    } catch (error) {
      expect((error as { suggestion?: string }).suggestion).toMatch(/, or leave one out with FILE:skip: batch-sync init products\.csv:<kind>$/);
    }
    // a guess that matches under half of a kind's required fields is not pre-filled in the command to
    // paste (the Bitrix-shaped export's products.csv was offered as products.csv:sales-profile, 0%)
    try {
      decideKinds([sampled('products.csv', ['product_id', 'sku', 'name', 'category', 'cost_price', 'is_active'])]);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/best guess sales-profile/);
      expect((error as { suggestion?: string }).suggestion).toMatch(/batch-sync init products\.csv:<kind>$/);
    }
    expect(targetOf('a.csv:skip', 'deal')).toEqual({ file: 'a.csv', skip: true });
    expect(targetOf('a.csv:account', 'deal')).toEqual({ file: 'a.csv', resource: 'account' });
    expect(targetOf('a.csv', 'deal')).toEqual({ file: 'a.csv', resource: 'deal' });
  });
});

const fields = (p: ReturnType<typeof proposeProfile>) => p.profile.fields as Record<string, Record<string, unknown>>;
const dealsOf = (csv: string) => {
  const { header, records } = rowsFromCsv(csv);
  return proposeProfile({ resource: 'deal', header, rows: records.map((r) => r.row) });
};

describe('won and lost from the export’s own words', () => {
  test('Pipedrive pt-BR: the Status column (Ganho/Perdido/Aberto) is isWon with its whole map, not the won date "Ganho em"', () => {
    const p = dealsOf(
      'ID,Título,Valor,Moeda,Etapa,Status,Ganho em,Proprietário\n' +
        '1,A,100,BRL,Proposta,Ganho,2024-03-01 10:00:00,Ana Souza\n' +
        '2,B,200,BRL,Qualificado,Perdido,,Ana Souza\n' +
        '3,C,300,BRL,Contato,Aberto,,Bia Reis\n',
    );
    expect(fields(p).isWon).toEqual({ column: 'Status', map: { Ganho: true, Perdido: false, Aberto: false } });
    expect(p.notes).toContain(
      'isWon: from the status "Status": "Ganho" is won, "Perdido", "Aberto" not; a value not in the map is a row error until you add it',
    );
  });

  test.each(['Ganho em', 'Won time', 'Fecha de ganado', 'Data de ganho', 'Won date'])('a won date "%s" alone is filled → won', (header) => {
    const p = dealsOf(`Deal ID,Title,Amount,Currency,Owner,${header}\nD1,A,1,USD,ana,2024-03-01\nD2,B,2,USD,ana,\n`);
    expect(fields(p).isWon).toEqual({ column: header, map: {}, otherwise: true, default: false });
    expect(p.notes).toContain(`isWon: "${header}" is the date a deal was won: a deal with one is won, one without is not`);
  });

  test('"filled → won" in the profile language: a filled cell is true, an empty one false', () => {
    const p = dealsOf('Deal ID,Title,Amount,Currency,Owner,Ganho em\nD1,A,1,USD,ana,2024-03-01\nD2,B,2,USD,ana,\n');
    const profile = parseProfile(p.profile, 'p.json');
    const mapper = createMapper({ resource: 'deal', header: ['Deal ID', 'Title', 'Amount', 'Currency', 'Owner', 'Ganho em'], profile, file: 'd.csv' });
    const won = (cell: string) => {
      const r = mapper.map(row({ 'Deal ID': 'D', Title: 't', Amount: '1', Currency: 'USD', Owner: 'a', 'Ganho em': cell }));
      return r.kind === 'item' ? r.item.isWon : r;
    };
    expect([won('2024-03-01'), won('')]).toEqual([true, false]);
  });

  test('Pipedrive’s prefixed headers: `Negócio - Status` by its values, `Negócio - Ganho em` a won date', () => {
    const status = dealsOf('Negócio - ID,Negócio - Título,Negócio - Valor,Negócio - Status,Negócio - Ganho em\n1,a,1,Ganho,2024-01-01\n2,b,2,Perdido,\n');
    expect(fields(status).isWon).toEqual({ column: 'Negócio - Status', map: { Ganho: true, Perdido: false } });
    const date = dealsOf('Deal - ID,Deal - Title,Deal - Value,Deal - Won time\n1,a,1,2024-01-01 10:00:00\n2,b,2,\n');
    expect(fields(date).isWon).toEqual({ column: 'Deal - Won time', map: {}, otherwise: true, default: false });
  });

  test('HubSpot dealstage ids: closedwon is won, any other stage is not', () => {
    const p = dealsOf(
      'hs_object_id,dealname,dealstage,amount,closedate,hubspot_owner_id,pipeline\n' +
        '1,A,closedwon,10,2024-01-01,77,default\n2,B,closedlost,20,2024-01-02,77,default\n3,C,appointmentscheduled,30,2024-01-03,78,default\n',
    );
    expect(fields(p).isWon).toEqual({ column: 'dealstage', map: { closedwon: true }, otherwise: false });
  });

  test('a status of Ganado/Perdido/Abierto or Won/Lost/Open is preferred over a won date; the yes/no flag over both', () => {
    expect(fields(dealsOf('Id,Title,Amount,Estado,Fecha de ganado\n1,a,1,Ganado,2024-01-01\n2,b,2,Abierto,\n')).isWon).toEqual({
      column: 'Estado',
      map: { Ganado: true, Abierto: false },
    });
    expect(fields(dealsOf('Id,Title,Amount,IsWon,Won date\n1,a,1,true,2024-01-01\n2,b,2,false,\n')).isWon).toEqual({ column: 'IsWon' });
  });

  test('dealStatusMap: every value a status word, and one of them won or lost', () => {
    expect(dealStatusMap(['Won', 'Lost', 'Open'])).toEqual({ Won: true, Lost: false, Open: false });
    expect(dealStatusMap(['closedwon', 'closedlost'])).toEqual({ closedwon: true, closedlost: false });
    expect(dealStatusMap(['Ganada', 'Perdida', 'En curso'])).toEqual({ Ganada: true, Perdida: false, 'En curso': false });
    expect(dealStatusMap(['Open', 'Aberto'])).toBeUndefined(); // nothing decided: could be any column
    expect(dealStatusMap(['Won', 'Proposal'])).toBeUndefined();
  });
});

describe('ids stay text', () => {
  test.each([
    'ID',
    'Id',
    'Record ID',
    'ID da organização',
    'Organização - ID',
    'código',
    'codigo',
    'Deal ID',
    'org_id',
    'Associated Company IDs',
    'associatedcompanyid',
    'hs_object_id',
    'vid',
    'AccountId',
    'EVENTID',
    'TASKID',
    'potentialid',
  ])('"%s" names an id', (h) => expect(namesAnId(h)).toBe(true));
  test.each(['Valor', 'Paid', 'PAID', 'VOID', 'Idioma', 'Valid', 'Probability', 'Número de funcionários'])('"%s" does not', (h) =>
    expect(namesAnId(h)).toBe(false),
  );

  test('custom fields named like an id are text, however numeric their values; others stay numbers', () => {
    const p = dealsOf(
      'ID,Título,Valor,Proprietário,ID da organização,Organização - ID,código,Probabilidade\n1,a,1,ana,17,17,0042,50\n2,b,2,ana,18,18,0043,60\n',
    );
    const types = Object.fromEntries(p.customFields.map((c) => [c.column, c.type]));
    expect(types).toEqual({ 'ID da organização': 'string', 'Organização - ID': 'string', código: 'string', Probabilidade: 'number' });
  });

  test('a number column holding another file’s ids is text, with a note', () => {
    const deals = {
      file: 'deals.csv',
      out: 'deals.profile.json',
      resource: 'deal' as const,
      header: ['Organização', 'Pontos'],
      // "Pontos" meets the ids by chance: its header names no other file
      rows: [
        { Organização: '17', Pontos: '17' },
        { Organização: '18', Pontos: '18' },
      ],
      profile: {
        fields: {},
        customFields: [
          { key: 'organizacao', type: 'number', column: 'Organização' },
          { key: 'pontos', type: 'number', column: 'Pontos' },
        ],
      },
    };
    const orgs = {
      file: 'organizacoes.csv',
      out: 'organizacoes.profile.json',
      resource: 'account' as const,
      header: ['ID', 'Nome'],
      rows: [17, 18, 19].map((id) => ({ ID: String(id), Nome: `Org ${id}` })),
      profile: { fields: { externalId: { column: 'ID' } } },
    };
    const notes: string[] = [];
    keepReferencesText([deals, orgs], notes);
    expect(deals.profile.customFields.map((c) => c.type)).toEqual(['string', 'number']);
    expect(notes).toEqual(['deals.csv: "Organização" holds ids of organizacoes.csv (2 of 2 sampled values): a text custom field, not a number']);
  });
});

// A Bitrix-shaped export (maxpoll-dev/bitrix-stats) holds deal_products.csv (a deal's line items) and
// pipeline_stages.csv (the stages of each pipeline) beside deals.csv: both were taken for deals from
// the first word of their names. A name whose kind word qualifies another thing names that thing.
describe("a file named after another thing of a kind's (deal_products, pipeline_stages) is not that kind by its name", () => {
  test.each([
    ['deal_products.csv', ['deal_id', 'product_id', 'quantity', 'unit_price', 'discount']],
    ['pipeline_stages.csv', ['pipeline_id', 'stage_id', 'stage_name', 'sort_order', 'is_final', 'is_success']],
    ['opportunity_line_items.csv', ['OpportunityId', 'Product2Id', 'Quantity', 'UnitPrice']],
    ['Deal Stage History.csv', ['Deal ID', 'Stage', 'Changed At']],
    ['negocios_produtos.csv', ['Negócio - ID', 'Produto', 'Quantidade']],
  ])('%s', (file, header) => {
    expect(guessResource(header, file).reason).not.toMatch(/^from its file name/);
  });
  test.each([
    ['closed_deals.csv', 'deal'],
    ['deals_2024.csv', 'deal'],
    ['Opportunity_Export.csv', 'deal'],
    ['oportunidades_ganadas.csv', 'deal'],
    ['sales_pipeline.csv', 'deal'],
    ['crm.lead.csv', 'deal'],
  ])('%s is still named a %s', (file, resource) => {
    const g = guessResource(['Id', 'Name'], file);
    expect(g.reason).toMatch(/^from its file name/);
    expect(g.resource).toBe(resource);
  });
});
