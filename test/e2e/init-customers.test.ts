// Issue 33 items 3–5 end to end, with the built CLI on small hand-made exports of the two shapes
// the issue met: a Pipedrive export in Portuguese (negócios, organizações, pessoas) and a HubSpot
// one (deals, companies, contacts). `init` on all the files at once leaves the customer contacts
// out in one line (and a FILE:skip file), takes isWon from the status words, keeps ids as text; the
// placeholders it lists filled in, `push --sandbox` accepts every deal and account, and the only
// sales profiles sent are the deals' owners.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

const csv = (rows: (string | number)[][]) => `${rows.map((r) => r.map((c) => (/[",]/.test(String(c)) ? `"${c}"` : c)).join(',')).join('\n')}\n`;
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

function write(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'init-customers-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Fills each placeholder init listed (`  <profile>: <path>: <why>`) with the answer for its path. */
function fillIn(stdout: string, answers: Record<string, string | ((asked: string) => string)>): string[] {
  const lines = stdout.split('fill in before use')[1]?.split('\n\n')[0]?.split('\n').slice(1) ?? [];
  return lines.map((line) => {
    const [, profile, path] = /^ {2}(.+\.profile\.json): (\S+): /.exec(line)!;
    const json = JSON.parse(readFileSync(profile!, 'utf8'));
    const [, ...rest] = path!.split('.');
    const key = rest.pop()!;
    expect(answers[path!], `an answer for ${path}`).toBeDefined();
    const answer = answers[path!]!;
    const holder = json.fields[rest.join('.')];
    holder[key] = typeof answer === 'function' ? answer(holder[key]) : answer;
    writeFileSync(profile!, JSON.stringify(json, null, 2));
    return path!;
  });
}

const OWNERS = ['Ana Souza', 'Bruno Lima', 'Carla Dias'];
/** The derived owners' e-mail, as its placeholder suggests (`<FILL IN: e-mail, e.g. {Owner|slug}@yourcompany.com>`). */
const OWNERS_EMAIL = (asked: string) => /\{[^}]+\}/.exec(asked)![0] + '@example.com';
const STATUS = ['Ganho', 'Perdido', 'Aberto'];

const pipedrive = () =>
  write({
    'negocios.csv': csv([
      ['ID', 'Título', 'Valor', 'Moeda', 'Organização', 'Organização - ID', 'Pessoa de contato', 'Etapa', 'Status', 'Ganho em', 'Proprietário'],
      ...range(24).map((i) => [
        i,
        `Negócio ${i}`,
        i % 5 ? i * 1000 : '',
        'BRL',
        `Empresa ${(i % 6) + 1}`,
        101 + (i % 6),
        `Pessoa ${i}`,
        ['Qualificado', 'Contato feito', 'Proposta feita', 'Negociação'][i % 4]!,
        STATUS[i % 3]!,
        STATUS[i % 3] === 'Ganho' ? `2024-0${(i % 9) + 1}-10 10:00:00` : '',
        OWNERS[i % 3]!,
      ]),
    ]),
    'organizacoes.csv': csv([
      ['ID', 'Nome', 'Endereço', 'Proprietário', 'Pessoas'],
      ...range(6).map((i) => [100 + i, `Empresa ${i}`, `Rua ${i}, São Paulo`, OWNERS[i % 3]!, (i % 4) + 1]),
    ]),
    'pessoas.csv': csv([
      ['ID', 'Nome', 'Telefone', 'E-mail', 'Cargo', 'Sobrenome', 'Organização', 'Organização - ID', 'Proprietário'],
      ...range(24).map((i) => [
        i,
        `Pessoa${i}`,
        `+55 11 9${i}000-0000`,
        `p${i}@cliente.com.br`,
        'Comprador',
        `Silva${i}`,
        `Empresa ${(i % 6) + 1}`,
        101 + (i % 6),
        OWNERS[i % 3]!,
      ]),
    ]),
    'produtos.csv': csv([['ID', 'Nome', 'Preço'], ...range(3).map((i) => [i, `Produto ${i}`, `${i}0,00`])]),
  });

const hubspot = () =>
  write({
    'hubspot_deals.csv': csv([
      ['deal_id', 'dealname', 'dealstage', 'amount', 'closedate', 'hubspot_owner_id', 'company_id', 'pipeline'],
      ...range(30).map((i) => [
        9000 + i,
        `Deal ${i}`,
        ['appointmentscheduled', 'qualifiedtobuy', 'closedwon', 'closedlost', 'contractsent'][i % 5]!,
        i % 7 ? `${i * 150}.50` : '',
        `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
        31000 + (i % 4),
        700 + (i % 8),
        'default',
      ]),
    ]),
    'hubspot_companies.csv': csv([
      ['company_id', 'name', 'domain', 'industry', 'numberofemployees'],
      ...range(8).map((i) => [699 + i, `Company ${i}`, `company${i}.com`, 'SOFTWARE', 10 * i]),
    ]),
    'hubspot_contacts.csv': csv([
      ['contact_id', 'first_name', 'last_name', 'email', 'jobtitle', 'company_id'],
      ...range(20).map((i) => [5000 + i, `First${i}`, `Last${i}`, `c${i}@company${i % 8}.com`, 'Buyer', 700 + (i % 8)]),
    ]),
  });

const profile = (dir: string, name: string) => JSON.parse(readFileSync(join(dir, name), 'utf8'));

describe('init on a CRM export with customer contacts', () => {
  test('Pipedrive pt-BR: pessoas.csv left out in one line, produtos.csv:skip too; isWon from Status; ids text; push accepts every deal and account', async () => {
    const dir = pipedrive();
    const files = ['negocios.csv', 'organizacoes.csv', 'pessoas.csv'].map((f) => join(dir, f));
    const init = await spawnCli(['init', ...files, `${join(dir, 'produtos.csv')}:skip`]);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`${join(dir, 'pessoas.csv')}: customer contacts (Nome, Telefone, E-mail): the API has no kind for them; left out\n`);
    expect(init.stdout).toContain(`${join(dir, 'produtos.csv')}: left out (produtos.csv:skip)\n`);
    expect(init.stdout).toContain('bring one in with FILE:KIND: pessoas.csv:sales-profile if they are your sellers');
    expect(init.stdout).toContain(
      'isWon: from the status "Status": "Ganho" is won, "Perdido", "Aberto" not; a value not in the map is a row error until you add it',
    );
    expect(init.stdout).toMatch(/isWon +← "Status" \(value map\)/);

    const plan = profile(dir, 'batch-sync.config.json');
    expect(plan.jobs).toEqual([
      { file: 'negocios.csv', resource: 'sales-profile', profile: 'negocios.sales-profile.profile.json' },
      { file: 'organizacoes.csv', resource: 'account', profile: 'organizacoes.profile.json' },
      { file: 'negocios.csv', resource: 'deal', profile: 'negocios.profile.json' },
    ]);
    const deals = profile(dir, 'negocios.profile.json');
    expect(deals.fields.isWon).toEqual({ column: 'Status', map: { Perdido: false, Aberto: false, Ganho: true } });
    expect(deals.customFields).toContainEqual(expect.objectContaining({ column: 'Organização - ID', type: 'string' }));
    expect(profile(dir, 'organizacoes.profile.json').customFields).toContainEqual(expect.objectContaining({ column: 'Pessoas', type: 'number' }));

    expect(fillIn(init.stdout, { 'fields.currentStage.pipelineName.const': 'Vendas', 'fields.email.template': OWNERS_EMAIL })).toEqual([
      'fields.email.template',
      'fields.currentStage.pipelineName.const',
    ]);
    const push = await spawnCli(['push', '--config', join(dir, 'batch-sync.config.json'), '--sandbox']);
    expect(push.stdout).toContain('OK: all 33 rows accepted, 21 skipped.'); // 21 deals repeat an owner: the same profile, sent once
    // the sellers are the three owners: no customer contact among them
    expect(push.stdout).toContain('The embedded sandbox now holds: 3 sales-profiles, 6 accounts, 24 deals, 0 activities');
    expect(push.code).toBe(0);
  }, 60_000);

  test('HubSpot: hubspot_contacts.csv (first_name, last_name, email, jobtitle) is no sales profile; dealstage closedwon is won; company_id stays text', async () => {
    const dir = hubspot();
    const init = await spawnCli(['init', ...['hubspot_deals.csv', 'hubspot_companies.csv', 'hubspot_contacts.csv'].map((f) => join(dir, f))]);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      `${join(dir, 'hubspot_contacts.csv')}: customer contacts (first_name, last_name, email): the API has no kind for them; left out\n`,
    );
    expect(init.stdout).toContain('isWon: from "dealstage": "closedwon" means won');
    expect(init.stdout).toMatch(/company_id +← "company_id" \(string\)/);
    expect(init.stdout).toMatch(/numberofemployees +← "numberofemployees" \(number\)/);
    const plan = profile(dir, 'batch-sync.config.json');
    expect(plan.jobs.map((j: { file: string; resource: string }) => `${j.resource} ${j.file}`)).toEqual([
      'sales-profile hubspot_deals.csv',
      'account hubspot_companies.csv',
      'deal hubspot_deals.csv',
    ]);
    expect(profile(dir, 'hubspot_deals.profile.json').fields.isWon).toEqual({ column: 'dealstage', map: { closedwon: true }, otherwise: false });

    // hubspot_owner_id holds numbers: the owners' names are asked, never the number sent as a first name
    const answers = { 'fields.profile.firstName.const': 'Sales', 'fields.profile.lastName.const': 'Rep' };
    expect(fillIn(init.stdout, { 'fields.amount.currency.const': 'USD', 'fields.email.template': OWNERS_EMAIL, ...answers })).toContain(
      'fields.profile.firstName.const',
    );
    const push = await spawnCli(['push', '--config', join(dir, 'batch-sync.config.json'), '--sandbox']);
    expect(push.stdout).toContain('The embedded sandbox now holds: 4 sales-profiles, 8 accounts, 30 deals, 0 activities');
    expect(push.code).toBe(0);
  }, 60_000);

  test('a customer file alone leaves nothing to map: exit 2, one line naming it and how to bring it in; nothing written', async () => {
    const dir = hubspot();
    const init = await spawnCli(['init', join(dir, 'hubspot_contacts.csv')]);
    expect(init.code).toBe(2);
    expect(init.stderr).toContain(`nothing left to map: ${join(dir, 'hubspot_contacts.csv')}: customer contacts (first_name, last_name, email)`);
    expect(init.stderr).toContain(`batch-sync.js init ${join(dir, 'hubspot_contacts.csv')}:<kind>`);
    expect(init.stdout).toBe('');
  }, 60_000);
});
