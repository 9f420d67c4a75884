// The engines (settings.ts: simple, fast) must be indistinguishable from outside: the same reports
// (json and human), errors CSVs and emitted batches, byte for byte once run ids and times are
// normalised, on every fixture with its profile or plan, on the shared CRM export and on a
// generated bench-like input large enough for the fast engine's read worker to cut it in chunks.
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSource } from '../../src/read/index.js';
import { runCli } from '../helpers/cli.js';
// @ts-expect-error: a plain .mjs module without types
import { generate, generateSpanish } from '../bench/generate.mjs';
// @ts-expect-error: a plain .mjs module without types
import { generateXlsx } from '../bench/generate-xlsx.mjs';

const ROOT = resolve(__dirname, '../..');
const F = (p: string) => join(ROOT, 'fixtures', p);
const ENGINES = ['simple', 'fast'] as const;
// each case runs both engines itself: once is enough, so npm test's fast pass leaves it to the simple one
const suite = process.env.BATCH_SYNC_ENGINE === 'fast' ? describe.skip : describe;
/** Rows of the generated inputs: large enough for the read worker's chunks (engines-identical-cleanup.test.ts asks for fewer). */
const ROWS = Number(process.env.ENGINES_IDENTICAL_ROWS ?? 20_000);
// each of those cases is 4 runs over 20,000 rows (2 engines × 2 formats): about 15 s on an idle
// host, and past the default 30 s on a shared one at a load of 20
const BENCH_LIKE = { timeout: 180_000 };

// every folder made under the temp directory goes when the file ends: the bench-like inputs alone are tens of MB
const scratchDirs: string[] = [];
function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  scratchDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of scratchDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Run ids, times and the temp directory: what differs between two runs of the same input. So do the
 * figures of timing the client learns from (issue 18): how far its adaptive limit rose, the answers'
 * latency, the time waited. The request, 429 and retry counts stay compared.
 */
function normalise(text: string, dir: string): string {
  return (
    text
      .replaceAll(dir, '<DIR>')
      .replaceAll(/\d{8}T\d{6}Z-[0-9a-f]{4}/g, '<RUN>')
      // the periodic progress lines (one every 5 s off a terminal) say how fast the host was, not what the engine did
      .replaceAll(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z {2}[a-z-]+: \d+ rows read\b.*\n/gm, '')
      .replaceAll(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<TIME>')
      .replaceAll(/"durationMs":\s*\d+/g, '"durationMs":0')
      .replaceAll(/"(waitMs|peakConcurrency|latencyP95Ms)":\s*\d+/g, '"$1":0')
      // the traffic line keeps its counts; the rest (waits, in flight, latency) is timing, and the line
      // fitted to 80 columns drops parts by their width, which timing decides
      .replaceAll(/^(requests: \d+ \(\d+ (?:×|answered) 429, \d+ retr(?:y|ies)\)).*$/gm, '$1, <timing>')
      .replaceAll(/peak-concurrency=\d+/g, 'peak-concurrency=<N>')
      .replaceAll(/\b\d+(\.\d+)?s\b/g, '<S>')
      .replaceAll(/\b\d+ (items|rows)\/s\b/g, '<N> $1/s')
  );
}

/** Everything a user sees of one command on one engine: both report formats, the errors CSVs, the emitted batches. */
async function outputs(engine: string, args: string[], dir: string): Promise<Record<string, string>> {
  const seen: Record<string, string> = {};
  for (const format of ['json', 'human']) {
    const out = join(dir, 'out');
    rmSync(out, { recursive: true, force: true });
    const emit = args[0] === 'push' ? [] : ['--emit', join(dir, 'emitted.ndjson')];
    // the JUnit report rides along with the json pass: no run of its own
    const junit = format === 'json' ? ['--junit', join(dir, 'junit.xml')] : [];
    const r = await runCli([...args, '--format', format, '--errors', out, ...emit, ...junit], { BATCH_SYNC_ENGINE: engine });
    seen[`${format} exit`] = String(r.code);
    seen[`${format} stdout`] = normalise(r.stdout, dir);
    seen[`${format} stderr`] = normalise(r.stderr, dir);
    if (existsSync(out)) for (const f of readdirSync(out).sort()) seen[`${format} ${f}`] = normalise(readFileSync(join(out, f), 'utf8'), dir);
    const emitted = join(dir, 'emitted.ndjson');
    if (existsSync(emitted)) seen[`${format} emitted`] = normalise(readFileSync(emitted, 'utf8'), dir);
    rmSync(emitted, { force: true });
    const junitFile = join(dir, 'junit.xml');
    if (existsSync(junitFile)) seen[`${format} junit`] = normalise(readFileSync(junitFile, 'utf8'), dir).replaceAll(/ (time|timestamp)="[^"]*"/g, ' $1=""');
    rmSync(junitFile, { force: true });
  }
  return seen;
}

async function expectSameOnBothEngines(args: string[]): Promise<Record<string, string>> {
  const dir = scratch('batch-sync-engines-');
  const [simple, fast] = [await outputs(ENGINES[0], args, dir), await outputs(ENGINES[1], args, dir)];
  expect(fast).toEqual(simple);
  return simple;
}

interface BadCase {
  file: string;
  profile: string;
}
const badCases = (JSON.parse(readFileSync(F('bad/cli-expected.json'), 'utf8')) as BadCase[]).map((c) => [`${c.file} with ${c.profile}`, c] as const);

suite('every fixture: reports, errors CSVs and emitted batches are the same on both engines', () => {
  test.each(badCases)('bad/%s', async (_, c) => {
    await expectSameOnBothEngines(['validate', F(`bad/${c.file}`), '--profile', F(`bad/profiles/${c.profile}.profile.json`)]);
  });

  test.each([
    ['salesforce', ['salesforce/opportunities.csv:salesforce/opportunities.profile.json']],
    ['hubspot', ['hubspot/deals.csv:hubspot/deals.profile.json']],
    ['es-excel', ['es-excel/vendedores.csv', 'es-excel/oportunidades.csv:es-excel/oportunidades.profile.json']],
    ['canonical', ['canonical/sales-profiles.csv', 'canonical/accounts.csv', 'canonical/deals.csv', 'canonical/activities.csv']],
    ['xlsx (typed cells through a profile)', ['es-excel/vendedores.csv', 'xlsx/oportunidades.xlsx:es-excel/oportunidades.profile.json']],
    ['xlsx (LibreOffice, canonical)', ['canonical/sales-profiles.csv', 'xlsx/libreoffice/deals.xlsx']],
  ])('%s (validate)', async (_, files) => {
    const out = await expectSameOnBothEngines(['validate', ...files.map((f) => f.split(':').map(F).join(':'))]);
    expect(out['json exit']).toBe('0');
  });

  test('canonical (push --sandbox)', async () => {
    const out = await expectSameOnBothEngines([
      'push',
      '--sandbox',
      '--concurrency',
      '1',
      ...['sales-profiles', 'accounts', 'deals', 'activities'].map((f) => F(`canonical/${f}.csv`)),
    ]);
    expect(out['json exit']).toBe('0');
  });

  test('canonical (push --dry-run --incremental: the preview)', async () => {
    const stateDir = scratch('batch-sync-preview-');
    const out = await expectSameOnBothEngines([
      'push',
      '--dry-run',
      '--incremental',
      '--state-dir',
      stateDir,
      '--sandbox',
      ...['sales-profiles', 'accounts', 'deals', 'activities'].map((f) => F(`canonical/${f}.csv`)),
    ]);
    expect(JSON.parse(out['json stdout']!).preview.deal.new).toBeGreaterThan(0);
    expect(out['json junit']).toContain('preview.new');
  });

  test('the shipped CRM export through its plan (validate, then push --sandbox)', async () => {
    const plan = F('crm-sales-opportunities/batch-sync.config.json');
    const validated = await expectSameOnBothEngines(['validate', '--config', plan]);
    expect(validated['json exit']).toBe('0');
    expect(validated['json emitted']!.split('\n').length).toBeGreaterThan(80);
    await expectSameOnBothEngines(['push', '--sandbox', '--concurrency', '1', '--config', plan]);
  });
});

suite('workbooks: rows the reader flags, and a bench-like workbook cut in chunks by the worker', BENCH_LIKE, () => {
  test('xlsx/deals.xlsx (validate, invalid rows and cells)', async () => {
    const out = await expectSameOnBothEngines(['validate', F('xlsx/deals.xlsx'), '--resource', 'deal']);
    expect(out['json exit']).toBe('1');
  });

  test('20,000 deals as a workbook (push --sandbox)', async () => {
    const dir = scratch('batch-sync-bench-');
    const workbook = await generateXlsx(join(dir, 'xlsx'), ROWS);
    const out = await expectSameOnBothEngines(['push', '--sandbox', '--concurrency', '1', workbook.profiles, workbook.deals]);
    expect(out['json exit']).toBe('1');
  });
});

suite('a generated bench-like input, with rows the worker and the main thread must reject alike', BENCH_LIKE, () => {
  let canonical: { profiles: string; deals: string };
  let spanish: { deals: string; profile: string };
  beforeAll(() => {
    const dir = scratch('batch-sync-bench-');
    canonical = generate(join(dir, 'canonical'), ROWS);
    // bad rows among the good ones, in several chunks: a bad amount, a duplicate id, a ragged row,
    // a quoted title with a delimiter and a line break, an owner no profile names
    appendFileSync(
      canonical.deals,
      [
        'X-1,Bad amount,ana-souza-0,ana-souza-0,false,12;5,USD,Main,Propuesta,2024-01-02T00:00:00Z,2024-02-01,ACC-1,50',
        'D-00000010,Duplicate,ana-souza-0,ana-souza-0,false,1.00,USD,Main,Propuesta,2024-01-02T00:00:00Z,2024-02-01,ACC-1,50',
        'X-2,Ragged,ana-souza-0',
        'X-3,"Quoted, with\na line break",ana-souza-0,ana-souza-0,true,3.50,EUR,Main,Ganado,2024-01-02T00:00:00Z,2024-02-01,ACC-2,90',
        'X-4,Unknown owner,nobody,nobody,false,3.50,EUR,Main,Ganado,2024-01-02T00:00:00Z,2024-02-01,ACC-2,90',
        '',
      ].join('\n'),
    );
    spanish = generateSpanish(join(dir, 'spanish'), ROWS);
  });

  test('canonical deals and their sales profiles (validate)', async () => {
    expect(statSync(canonical.deals).size).toBeGreaterThan(2_000_000);
    const out = await expectSameOnBothEngines(['validate', canonical.profiles, canonical.deals]);
    expect(out['json exit']).toBe('1');
    expect(out['json emitted']!.split('\n').length).toBeGreaterThan(200);
  });

  test('canonical deals (push --sandbox)', async () => {
    await expectSameOnBothEngines(['push', '--sandbox', '--concurrency', '1', canonical.profiles, canonical.deals]);
  });

  test('the profile language of issue 25 over them: owners derived from the deals file through a lookup, replace, rowHash, repeated rows (push --sandbox)', async () => {
    const dir = dirname(canonical.deals);
    const email = { column: 'ownerExternalId', lookup: { file: 'sales-profiles.csv', key: 'externalId', value: 'email' } };
    const owners = {
      resource: 'sales-profile',
      fields: {
        externalId: email,
        email,
        'profile.firstName': {
          column: 'ownerExternalId',
          replace: [
            { pattern: '-(\\d+)$', with: ' $1' },
            { pattern: '-', with: ' ' },
          ],
          transform: 'firstName',
        },
        'profile.lastName': { column: 'ownerExternalId', replace: { pattern: '^.*-', with: '' } },
      },
    };
    const deals = {
      resource: 'deal',
      fields: {
        externalId: { column: 'externalId', replace: { pattern: '^D-0*', with: 'D' } },
        title: 'title',
        ownerExternalId: email,
        agentExternalId: { ...email, column: 'agentExternalId' },
        isWon: 'isWon',
        'amount.value': 'amount.value',
        'amount.currency': 'amount.currency',
      },
      customFields: [{ key: 'row', type: 'string', rowHash: true }],
    };
    writeFileSync(join(dir, 'owners.profile.json'), JSON.stringify(owners));
    writeFileSync(join(dir, 'language.profile.json'), JSON.stringify(deals));
    const out = await expectSameOnBothEngines([
      'push',
      '--sandbox',
      '--concurrency',
      '1',
      '--batch-size',
      '500',
      // two jobs over 20,000 rows take seconds: progress lines would differ with the timing
      '--quiet',
      `${canonical.deals}:${join(dir, 'owners.profile.json')}`,
      `${canonical.deals}:${join(dir, 'language.profile.json')}`,
    ]);
    const report = JSON.parse(out['json stdout']!);
    expect(report.groups.some((g: { reason: string }) => g.reason.startsWith('DUPLICATE_IDENTICAL'))).toBe(true);
    expect(report.counts['sales-profile'].accepted).toBeGreaterThan(1);
    expect(report.counts.deal.accepted).toBeGreaterThan(19_000);
  }, 120_000);

  test('the Spanish Excel export through its profile (validate)', async () => {
    const out = await expectSameOnBothEngines(['validate', `${spanish.deals}:${spanish.profile}`]);
    expect(out['json emitted']!.length).toBeGreaterThan(1_000_000);
  });
});

/** Every CSV, JSON and NDJSON file under fixtures/, for the readers. */
function inputFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return inputFiles(path);
    return /\.(csv|json|ndjson)$/.test(e.name) && !/(profile|config|cases|expected)[^/]*\.json$/.test(e.name) ? [path] : [];
  });
}

async function readAll(file: string, fast: boolean): Promise<unknown> {
  try {
    const source = await openSource(file, {}, fast);
    const records = [];
    for await (const r of source.records) records.push(r.kind === 'row' ? { kind: r.kind, line: r.line, row: { ...r.row } } : r);
    return { header: source.header, detected: source.detected, warnings: source.warnings, records };
  } catch (error) {
    return { error: (error as Error).message, name: (error as Error).name };
  }
}

suite('the readers', () => {
  test('every input file under fixtures/ (the outside corpora too) reads the same through csv-parse alone and through the fast path', async () => {
    const files = inputFiles(join(ROOT, 'fixtures'));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) expect(await readAll(file, false), relative(ROOT, file)).toEqual(await readAll(file, true));
  });
});
