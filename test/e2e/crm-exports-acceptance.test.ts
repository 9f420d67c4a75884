// Issue 25's acceptance, as a new user would do it, on real exports nobody here wrote
// (fixtures/outside/): the built CLI's `init` on all of an export's files at once, only the
// placeholders it lists filled in (programmatically, by what each placeholder asks), then
// `push --sandbox` → at least 95% of the export's rows accepted, and every other row explained by
// the report in one line per reason.

//
// Issue 33's acceptance on exports of other origins nobody here had seen (HubSpot, Zoho, Bitrix24,
// Odoo, Pipedrive): real exports whose sources state no licence, so they are not in this repository;
// fixtures/outside/pseudonymised/ says where each comes from and writes a pseudonymised copy of
// it, and CRM_EXPORTS_OUTSIDE names the folder that holds those copies (one folder per export).
// Without it they are skipped. For these the share counted is of the deals and accounts, and no
// file of customers (contacts, people) may become sales profiles.
//
// The Brazilian marketplace's closed deals (Olist, CC BY-NC-SA: not redistributable) run from a
// copy named by OLIST_CLOSED_DEALS (the path of olist_closed_deals_dataset.csv), as
// fixtures/outside/csv-test-data does.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

const OUTSIDE = join(import.meta.dirname, '../../fixtures/outside');
const OLIST = process.env.OLIST_CLOSED_DEALS;
const CRM_EXPORTS_OUTSIDE = process.env.CRM_EXPORTS_OUTSIDE;

/** What a user answers to each placeholder, by what it asks: nothing else of the profiles is edited. */
const ANSWERS: [RegExp, string | boolean][] = [
  [/pipeline name/, 'Sales'],
  [/e-mail, e\.g\. \{([^}|]+)\|slug\}/, '{$1|slug}@example.com'],
  // owners named in another script (Bitrix24's Cyrillic names): no e-mail can be made from them, and
  // the export holds none; a user without a users file gives one shared address
  [/value or column for email/, 'sales@example.com'],
  [/value or column for amount\.currency/, 'USD'],
  [/value or column for amount\.value/, '0'],
  [/value or column for title/, 'Closed deal'],
  [/value or column for type/, 'CALL'],
  [/value or column for source\.name/, 'OUTBOUND'],
  [/id of the sales profile who owns these deals/, 'deal-owner'],
  [/e-mail of the deals' owner/, 'deal-owner@example.com'],
  [/full name of the deals' owner/, 'Deal Owner'],
  // owners named by an id only (Salesforce's OwnerId) and no users file: one name for them all
  [/first name of each owner/, 'Sales'],
  [/last name of each owner/, 'Rep'],
  // an export without a won flag, stage or status (Odoo's leads): none of its deals is won
  [/value or column for isWon/, false],
  // users whose whole name is in one column (Zoho's "Last Name"): there is no first name to give
  [/value or column for profile\.firstName/, '-'],
];

interface Export {
  name: string;
  dir: string;
  files: string[];
  rows: number;
}

const EXPORTS: Export[] = [
  { name: 'Salesforce Data Loader CSV', dir: 'salesforce-data-loader', files: ['Account.csv', 'Opportunity.csv', 'Task.csv'], rows: 147 },
  { name: 'Salesforce sf data tree export JSON', dir: 'salesforce-tree-json', files: ['Accounts.json', 'Opportunities.json'], rows: 100 },
  {
    name: 'Dynamics 365 views',
    dir: 'dynamics365-sales',
    files: ['User.csv', 'Account.csv', 'Opportunity.csv', 'Appointments.csv', 'Emails.csv'],
    rows: 5507,
  },
  {
    name: 'Maven Analytics CRM sample',
    dir: 'crm-sales-opportunities',
    files: ['sales_teams.csv', 'accounts.csv', 'sales_pipeline.csv'],
    rows: 35 + 85 + 8800,
  },
];

/** Fills each placeholder init listed, in the profile it named, by what the placeholder asks. */
function fillIn(listing: string): string[] {
  const lines = listing.split('fill in before use')[1]?.split('\n\n')[0]?.split('\n').slice(1) ?? [];
  return lines.map((line) => {
    // an owner the export lacks is asked once, in the row of the file init wrote for it
    const owner = /^ {2}(.+owner\.csv): line 2: /.exec(line);
    if (owner) {
      writeFileSync(owner[1]!, 'Role,Owner ID,E-mail,Full name\ndeal owner,deal-owner,deal-owner@example.com,Deal Owner\n');
      return `${basename(owner[1]!)}: line 2`;
    }
    const [, profile, path] = /^ {2}(.+\.profile\.json): (\S+): /.exec(line)!;
    const json = JSON.parse(readFileSync(profile!, 'utf8'));
    // `fields.currentStage.pipelineName.const`: the field name itself holds dots
    const [top, ...rest] = path!.split('.');
    const key = rest.pop()!;
    const holder = json[top!][rest.join('.')];
    const asked = holder[key] as string;
    expect(asked, `${profile} ${path}`).toMatch(/^<FILL IN: /);
    const answer = ANSWERS.find(([re]) => re.test(asked));
    expect(answer, `an answer for ${asked}`).toBeDefined();
    const found = answer![0].exec(asked)!;
    const given = answer![1];
    holder[key] = typeof given === 'string' ? given.replace(/\$(\d)/g, (_, i: string) => found[Number(i)]!) : given;
    writeFileSync(profile!, JSON.stringify(json, null, 2));
    return `${basename(profile!)}: ${path}`;
  });
}

interface NotAccepted {
  file: string;
  resource: string;
}

async function acceptance(files: string[], expectedRows: number) {
  const init = await spawnCli(['init', ...files]);
  expect(init.stderr).toBe('');
  expect(init.code).toBe(0);
  const edits = fillIn(init.stdout);
  const plan = join(files[0]!, '..', 'batch-sync.config.json');
  const jobs = JSON.parse(readFileSync(plan, 'utf8')).jobs as { file: string; resource: string; profile: string }[];
  // the jobs init derived (sales profiles from a deals file's owner column) are not the export's rows
  const derived = jobs.filter((j) => j.profile.endsWith('.sales-profile.profile.json'));
  const push = await spawnCli(['push', '--sandbox', '--config', plan, '--format', 'json']);
  expect(push.stderr).not.toMatch(/^error:/m);
  const report = JSON.parse(push.stdout);
  expect(report.notListed).toBe(0);
  const own = (r: NotAccepted) => !derived.some((d) => r.resource === 'sales-profile' && basename(r.file) === d.file);
  const notAccepted = (report.notAccepted as NotAccepted[]).filter(own);
  const read = Object.values(report.counts as Record<string, { read: number }>).reduce((n, c) => n + c.read, 0);
  const derivedRows = read - expectedRows;
  // every row not accepted is in a group of the report, one line per reason: those listed one by
  // one (notAccepted) and those left out on purpose (identical repeats, sent once with their first)
  const groups = (report.groups as { resource: string; reason: string; count: number; examples: NotAccepted[] }[]).filter((g) => g.examples.some(own));
  const notAcceptedOwn = groups.reduce((n, g) => n + g.count, 0);
  expect(notAcceptedOwn).toBeGreaterThanOrEqual(notAccepted.length);
  for (const g of groups) expect(g.reason).not.toBe('');
  const accepted = expectedRows - notAcceptedOwn;
  return { init, edits, accepted, derivedRows, groups };
}

describe('issue 25: init, fill in only the placeholders, push --sandbox', () => {
  for (const e of EXPORTS) {
    test(`${e.name}: ≥ 95% of ${e.rows} rows accepted`, async () => {
      const dir = mkdtempSync(join(tmpdir(), `acceptance-${e.dir}-`));
      for (const f of e.files) copyFileSync(join(OUTSIDE, e.dir, f), join(dir, f));
      const r = await acceptance(
        e.files.map((f) => join(dir, f)),
        e.rows,
      );
      expect(r.accepted / e.rows).toBeGreaterThanOrEqual(0.95);
      expect(r.groups.length).toBeLessThanOrEqual(5);
    }, 180_000);
  }

  const olist = !OLIST || !existsSync(OLIST) ? test.skip : test;
  olist(
    `Olist closed deals (from OLIST_CLOSED_DEALS${OLIST ? '' : ': not set'}): ≥ 95% of 842 rows accepted`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'acceptance-olist-'));
      copyFileSync(OLIST!, join(dir, 'olist_closed_deals_dataset.csv'));
      const r = await acceptance([join(dir, 'olist_closed_deals_dataset.csv')], 842);
      expect(r.accepted / 842).toBeGreaterThanOrEqual(0.95);
    },
    180_000,
  );
});

describe('issue 25: what init tells on each export', () => {
  test('every file of every export gets its kind from CRM vocabulary, and JSON is proposed for too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'acceptance-kinds-'));
    const kinds: string[] = [];
    for (const e of EXPORTS) {
      for (const f of e.files) copyFileSync(join(OUTSIDE, e.dir, f), join(dir, `${e.dir}-${f}`));
      const r = await spawnCli(['init', ...e.files.map((f) => join(dir, `${e.dir}-${f}`)), '--plan', join(dir, `${e.dir}.config.json`)]);
      expect(r.code, r.stderr).toBe(0);
      const plan = JSON.parse(readFileSync(join(dir, `${e.dir}.config.json`), 'utf8')).jobs as { file: string; resource: string }[];
      kinds.push(...plan.map((j) => `${j.file.replace(`${e.dir}-`, `${e.dir}/`)}: ${j.resource}`));
    }
    expect(kinds).toEqual([
      'salesforce-data-loader/Opportunity.csv: sales-profile',
      'salesforce-data-loader/Account.csv: account',
      'salesforce-data-loader/Opportunity.csv: deal',
      'salesforce-data-loader/Task.csv: activity',
      'owner.csv: sales-profile',
      'salesforce-tree-json/Accounts.json: account',
      'salesforce-tree-json/Opportunities.json: deal',
      'dynamics365-sales/User.csv: sales-profile',
      'dynamics365-sales/Account.csv: account',
      'dynamics365-sales/Opportunity.csv: deal',
      'dynamics365-sales/Appointments.csv: activity',
      'dynamics365-sales/Emails.csv: activity',
      'crm-sales-opportunities/sales_teams.csv: sales-profile',
      'crm-sales-opportunities/accounts.csv: account',
      'crm-sales-opportunities/sales_pipeline.csv: deal',
    ]);
  }, 180_000);
});

interface OutsideExport {
  name: string;
  /** Its folder under CRM_EXPORTS_OUTSIDE (fixtures/outside/<dir>/README.md says what it is). */
  dir: string;
  /** The deals' and accounts' files, with their rows: the share counted is of these. */
  counted: { file: string; resource: 'deal' | 'account'; rows: number }[];
  /** The other files of the export: given to init too, as a user would. */
  others: string[];
  /** Files of customers (contacts, people): never sales profiles. */
  customers: string[];
  /** The sellers the export names (distinct owners): no more sales profiles than that may be accepted. */
  sellers: number;
  /** What stops it on main today (issue 33's items), when it does: the case is expected to fail until then. */
  stoppedBy?: string;
}

const OUTSIDE_EXPORTS: OutsideExport[] = [
  {
    name: 'HubSpot "All deals" and "All contacts" exports',
    dir: 'hubspot-humming-agent',
    counted: [{ file: 'hubspot-crm-exports-all-deals.csv', resource: 'deal', rows: 54 }],
    others: ['hubspot-crm-exports-all-contacts.csv'],
    customers: ['hubspot-crm-exports-all-contacts.csv'],
    sellers: 4,
    // before items 2, 3 and 4: init exited 2 on the contacts' repeated "Billing Contact", then could not
    // tell the contacts' kind, then took isWon from "Closed won count" and amount.currency from "Amount
    // in company currency" (a number): 0 of 54 deals valid; before its currency rule, init's check
    // moved from one "… in company currency" column to the next and stopped on the third
  },
  {
    name: 'Zoho CRM (Users, Accounts, Potentials, Contacts, as Zoho Analytics exports them)',
    dir: 'zoho-analytics-crm',
    counted: [
      { file: 'Accounts.csv', resource: 'account', rows: 2229 },
      { file: 'Potentials.csv', resource: 'deal', rows: 3632 },
    ],
    others: ['Users.csv', 'Contacts.csv'],
    customers: ['Contacts.csv'],
    sellers: 11,
    // before items 3 and 1: init exited 2, "cannot tell which resource Contacts.csv holds (best guess
    // sales-profile …)"; then "Closing Date" "16 Apr, 2021 00:03:00" was no date it read (0 of 3,632
    // deals valid), and the deals' owners (a slug of "Potential Owner") never met Users.csv's ids
    // ("USER_ID") until init looked them up in its "Last Name"
  },
  {
    name: 'Bitrix24 deals and contacts (Russian)',
    dir: 'bitrix24-ctrl',
    counted: [{ file: 'deals.csv', resource: 'deal', rows: 7602 }],
    others: ['contacts.csv'],
    customers: ['contacts.csv'],
    sellers: 29,
    // before item 3: init exited 2, "cannot tell which resource contacts.csv holds (best guess sales-profile …)"
  },
  {
    name: 'Odoo crm.lead export (leads, owners as external ids)',
    dir: 'odoo-crm-lead',
    counted: [{ file: 'crm.lead.csv', resource: 'deal', rows: 471 }],
    others: [],
    customers: [],
    sellers: 5,
  },
  {
    name: 'Pipedrive deals and organizations export (English)',
    dir: 'pipedrive-opticwise',
    counted: [
      { file: 'deals-23955722-69.csv', resource: 'deal', rows: 175 },
      { file: 'organizations-23955722-70.csv', resource: 'account', rows: 4859 },
    ],
    others: [],
    customers: [],
    sellers: 5,
  },
];

describe.skipIf(!CRM_EXPORTS_OUTSIDE)('issue 33: exports of other origins (from CRM_EXPORTS_OUTSIDE), init, placeholders only, push --sandbox', () => {
  for (const e of OUTSIDE_EXPORTS) {
    const rows = e.counted.reduce((n, c) => n + c.rows, 0);
    const present = CRM_EXPORTS_OUTSIDE !== undefined && existsSync(join(CRM_EXPORTS_OUTSIDE, e.dir));
    const run = !present ? test.skip : e.stoppedBy ? test.fails : test;
    run(
      `${e.name}: ≥ 95% of ${rows} deals and accounts accepted, no customer sent as a seller${e.stoppedBy ? ` (fails until ${e.stoppedBy})` : ''}`,
      async () => {
        const dir = mkdtempSync(join(tmpdir(), `acceptance-${e.dir}-`));
        const files = [...e.counted.map((c) => c.file), ...e.others];
        for (const f of files) copyFileSync(join(CRM_EXPORTS_OUTSIDE!, e.dir, f), join(dir, f));
        const init = await spawnCli(['init', ...files.map((f) => join(dir, f))]);
        expect(init.stderr).toBe('');
        expect(init.code).toBe(0);
        fillIn(init.stdout);
        const plan = join(dir, 'batch-sync.config.json');
        const jobs = JSON.parse(readFileSync(plan, 'utf8')).jobs as { file: string; resource: string }[];
        // customers are no kind the API has: never sent as sales profiles, nor as accounts, deals or
        // activities (a lookup table a deal column refers to is not a job of these)
        const kinds = ['sales-profile', 'account', 'deal', 'activity'];
        for (const c of e.customers) expect(jobs.filter((j) => j.file === c && kinds.includes(j.resource))).toEqual([]);
        const push = await spawnCli(['push', '--sandbox', '--config', plan, '--format', 'json']);
        expect(push.stderr).not.toMatch(/^error:/m);
        const report = JSON.parse(push.stdout);
        expect(report.notListed).toBe(0);
        const groups = report.groups as { resource: string; reason: string; count: number; examples: NotAccepted[] }[];
        for (const g of groups) expect(g.reason).not.toBe('');
        let accepted = 0;
        for (const c of e.counted) {
          if (!jobs.some((j) => j.file === c.file && j.resource === c.resource)) continue;
          const notAccepted = groups
            .filter((g) => g.resource === c.resource && g.examples.some((x) => basename(x.file) === c.file))
            .reduce((n, g) => n + g.count, 0);
          accepted += c.rows - notAccepted;
        }
        expect(accepted / rows).toBeGreaterThanOrEqual(0.95);
        expect((report.counts['sales-profile']?.accepted ?? 0) as number).toBeLessThanOrEqual(e.sellers);
      },
      180_000,
    );
  }
});
