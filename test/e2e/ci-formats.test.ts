// What CI sees: `--format github` annotations read back as the runner reads them, the step summary
// GitHub shows, and `--junit` validated against the JUnit schema with xmllint.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { spawnCli, tempFiles } from '../helpers/cli.js';
import { junitSchemaErrors } from '../helpers/junit-schema.js';
import { parseWorkflowCommands, stepCommands } from '../helpers/workflow-commands.js';

const HEADER = 'externalId,title,ownerExternalId,agentExternalId,isWon,amount.value,amount.currency,closeDate';

async function validJunit(xml: string): Promise<void> {
  expect(await junitSchemaErrors(xml)).toEqual([]);
}

test('--format github: one annotation per failing row at its file and line, escaped, paths relative to GITHUB_WORKSPACE, and a summary', async () => {
  const repo = tempFiles({});
  mkdirSync(join(repo, 'exports'));
  // a name with the characters GitHub's properties must escape: comma, percent, and a line break
  const name = 'odd, 100%\nname.csv';
  writeFileSync(join(repo, 'exports', name), [HEADER, 'D1,One,ana,ana,true,1,USX,', 'D2,Two,ana,ana,maybe,1,USD,', 'D3,Three,ana,ana,false,1,EUR,'].join('\n'));
  const summary = join(repo, 'summary.md');
  writeFileSync(summary, '# earlier step\n');
  const r = await spawnCli(['validate', '--resource', 'deal', '--format', 'github', join('exports', name)], {
    cwd: join(repo, 'exports', '..'),
    env: { GITHUB_WORKSPACE: repo, GITHUB_STEP_SUMMARY: summary },
  });
  expect(r.code).toBe(1);
  const commands = parseWorkflowCommands(r.stdout);
  // nothing but workflow commands on stdout
  expect(r.stdout.trim().split('\n')).toHaveLength(commands.length);
  expect(commands.slice(0, 2)).toEqual([
    {
      command: 'error',
      properties: { file: `exports/${name}`, line: '2', title: 'batch-sync: deal invalid (amount.currency)' },
      message: 'externalId D1: INVALID amount.currency: "USX" is not an ISO-4217 currency code',
    },
    {
      command: 'error',
      properties: { file: `exports/${name}`, line: '3', title: 'batch-sync: deal invalid (isWon)' },
      message: 'externalId D2: INVALID isWon: "maybe" is not true or false',
    },
  ]);
  expect(commands[2]).toMatchObject({ command: 'error', properties: { title: 'batch-sync validate: 2 rows not valid' } });
  expect(commands[2]!.message).toContain('read 3, valid 1, rejected 0, invalid 2');
  expect(commands).toHaveLength(3);
  // the summary line stays on stderr, as in every format
  expect(r.stderr).toMatch(/batch-sync validate: run \S+ FAILED exit=1/);

  const md = readFileSync(summary, 'utf8');
  expect(md.startsWith('# earlier step\n### batch-sync validate: 2 rows not valid')).toBe(true);
  expect(md).toContain('| deal | 3 | 1 | 0 | 2 | 0 | 0 |');
  // `:` as a character reference: it renders as itself, but never starts a link
  expect(md).toMatch(/\| 1 \| deal \| INVALID amount\.currency&#58; "…" is not an ISO-4217 currency code \| exports\/odd, 100% name\.csv&#58;2 D1 \|/);
});

test("--format github stays within GitHub's 10 annotations per step: the first row of each reason, then one summary", async () => {
  // 12 reasons (12 bad date forms are one reason, so use distinct fields and values), 40 rows
  const rows = [HEADER];
  const bad = ['amount.currency', 'isWon', 'closeDate', 'amount.value'];
  for (let i = 1; i <= 40; i++) {
    const k = bad[i % bad.length];
    rows.push(
      `D${i},T,ana,ana,${k === 'isWon' ? `maybe${i}` : 'true'},${k === 'amount.value' ? 'x' : '1'},${k === 'amount.currency' ? 'USX' : 'USD'},${k === 'closeDate' ? '2024-02-30' : ''}`,
    );
  }
  const dir = tempFiles({ 'deals.csv': rows.join('\n') });
  const r = await spawnCli(['validate', '--format', 'github', '--errors', 'failed.csv', 'deals.csv'], { cwd: dir, env: { GITHUB_WORKSPACE: '' } });
  expect(r.code).toBe(1);
  const commands = parseWorkflowCommands(r.stdout);
  expect(commands.length).toBeLessThanOrEqual(10);
  const rowsShown = commands.filter((c) => c.properties.file !== undefined);
  expect(rowsShown).toHaveLength(9);
  // every reason has its first row shown before any reason's second
  expect(new Set(rowsShown.slice(0, 4).map((c) => c.properties.title)).size).toBe(4);
  const last = commands.at(-1)!;
  expect(last.properties.title).toBe('batch-sync validate: 40 rows not valid');
  expect(last.message).toContain('9 of 40 shown as annotations; full report: failed.csv');
});

test('--format github on a clean run: one notice, no error', async () => {
  const dir = tempFiles({ 'deals.csv': [HEADER, 'D1,One,ana,ana,true,1,USD,'].join('\n') });
  const r = await spawnCli(['validate', '--format', 'github', 'deals.csv'], { cwd: dir, env: { GITHUB_STEP_SUMMARY: '' } });
  expect(r.code).toBe(0);
  expect(parseWorkflowCommands(r.stdout)).toEqual([
    {
      command: 'notice',
      properties: { title: 'batch-sync validate: OK' },
      message: 'read 1, valid 1, rejected 0, invalid 0, skipped 0, warnings 0',
    },
  ]);
});

test('the schema check can fail: xmllint refuses a testsuite without its counts', async () => {
  const errors = await junitSchemaErrors('<testsuites><testsuite name="x"><testcase name="y"/></testsuite></testsuites>');
  expect(errors.join('\n')).toMatch(/attribute 'tests' is required/);
});

test('--junit: valid against the JUnit schema, a suite per file, a case per reason listing its rows, XML-forbidden characters removed', async () => {
  const dir = tempFiles({
    'deals.csv': [
      HEADER,
      'D\u0001X,One,ana,ana,true,1,USX,',
      'D2,Two,ana,ana,true,1,USY,',
      'D3,<b>&,ana,ana,maybe,1,USD,',
      'D4,Four,ana,ana,false,1,EUR,',
    ].join('\n'),
    'accounts.csv': 'externalId,name,type\nacme,Acme,COMPANY\n',
  });
  const r = await spawnCli(['validate', '--junit', 'out/report.xml', '--format', 'json', 'deals.csv', 'accounts.csv'], { cwd: dir });
  // the folder does not exist: the report is still printed, and the file's failure is exit 2
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('cannot write --junit out/report.xml');
  expect(JSON.parse(r.stdout).totals.invalid).toBe(3);

  const ok = await spawnCli(['validate', '--junit', 'report.xml', 'deals.csv', 'accounts.csv'], { cwd: dir });
  expect(ok.code).toBe(1);
  const xml = readFileSync(join(dir, 'report.xml'), 'utf8');
  await validJunit(xml);
  expect(xml).not.toMatch(/[\u0000-\u0008]/);
  expect(xml).toContain('<testsuite name="deals.csv" tests="3" failures="2" errors="0" skipped="0"');
  expect(xml).toContain('<testsuite name="accounts.csv" tests="1" failures="0"');
  expect(xml).toContain('<failure type="invalid" message="2 rows: INVALID amount.currency: &quot;…&quot; is not an ISO-4217 currency code">');
  // a control character in a row line is shown escaped, as on a terminal (a CR or LF could forge a line)
  expect(xml).toContain(
    'deals.csv:2  externalId=D\\u0001X  field=amount.currency  INVALID: amount.currency: &quot;USX&quot; is not an ISO-4217 currency code\n',
  );
  expect(xml).toContain('deals.csv:3  externalId=D2  field=amount.currency');
  expect(xml).toContain('<testcase name="rows valid" classname="deals.csv" time="0"/>');
  expect(xml).toContain('<system-out>4 rows read: 1 valid, 0 rejected, 3 invalid, 0 skipped</system-out>');
});

test('--junit bounds a reason with many rows: 200 listed, the rest counted, still valid', async () => {
  const rows = [HEADER];
  for (let i = 1; i <= 5000; i++) rows.push(`D${i},T,ana,ana,true,1,USX,`);
  const dir = tempFiles({ 'deals.csv': rows.join('\n') });
  const r = await spawnCli(['validate', '--junit', 'report.xml', '--quiet', 'deals.csv'], { cwd: dir });
  expect(r.code).toBe(1);
  const xml = readFileSync(join(dir, 'report.xml'), 'utf8');
  await validJunit(xml);
  expect(xml.match(/externalId=D\d+/g)).toHaveLength(200);
  expect(xml).toContain('… and 4800 more (the errors CSV, --errors, has every row)');
  expect(xml.length).toBeLessThan(64 * 1024);
});

test('--junit is refused over an input of the run', async () => {
  const dir = tempFiles({ 'accounts.csv': 'externalId,name,type\nacme,Acme,COMPANY\n' });
  const r = await spawnCli(['validate', '--junit', 'accounts.csv', 'accounts.csv'], { cwd: dir });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('refusing to write --junit over an input of this run');
  expect(readFileSync(join(dir, 'accounts.csv'), 'utf8')).toBe('externalId,name,type\nacme,Acme,COMPANY\n');
});

// issue 27 items 5 and 11: what the runner reads in the built CLI's output under GitHub Actions
test('under GITHUB_ACTIONS=true no cell or file name acts on the runner, on stdout or stderr, in any format; --format github still annotates the file', async () => {
  const repo = tempFiles({});
  // a name the runner would cut ('=' dropped) and a cell in the old and new command forms
  const name = '=evil ##[add-mask]Acme.csv';
  const cell = '##[stop-commands]tok ##[error file=evil.yml;line=1]forged';
  writeFileSync(join(repo, name), [HEADER, `D1,One,ana,ana,true,1,"${cell}",`, '::error::also forged,Two,ana,ana,true,1,USD,'].join('\n'));
  const env = { GITHUB_ACTIONS: 'true', GITHUB_WORKSPACE: repo, GITHUB_STEP_SUMMARY: join(repo, 'summary.md') };
  for (const format of ['human', 'json']) {
    const r = await spawnCli(['validate', '--resource', 'deal', '--format', format, name], { cwd: repo, env });
    expect(r.code).toBe(1);
    for (const takeStdout of [[true], [false]]) expect(stepCommands(r.stdout, r.stderr, takeStdout, repo).commands).toEqual([]);
    // the values are still all there, in JSON's notation
    if (format === 'json') expect(JSON.parse(r.stdout).notAccepted[0].externalId).toBe('D1');
    if (format === 'human') expect(r.stdout).toContain('#\\u0023[stop-commands]tok');
  }
  const missing = await spawnCli(['validate', '::error::x.csv'], { cwd: repo, env });
  expect(missing.code).toBe(2);
  expect(stepCommands(missing.stdout, missing.stderr, [false], repo).commands).toEqual([]);

  const gh = await spawnCli(['validate', '--resource', 'deal', '--format', 'github', name], { cwd: repo, env });
  expect(gh.code).toBe(1);
  const runner = stepCommands(gh.stdout, gh.stderr, [false, false, false], repo);
  expect(runner.masks).toEqual([]);
  expect(runner.commands.map((c) => [c.command, c.properties.file ?? null])).toEqual([
    ['error', name],
    ['error', null],
  ]);
  expect(runner.commands[1]!.properties.title).toBe('batch-sync validate: 1 row not valid');
});

test('warnings in CI formats: --junit lists each reason of a file with its count and first rows, --format github annotates the first rows only (issue 29.9)', async () => {
  const rows = ['Cuentas activas', 'externalId,name,type'];
  for (let i = 1; i <= 500; i++) rows.push(`acc-${i},Cuenta ${i},PARTNER`);
  const dir = tempFiles({ 'accounts.csv': rows.join('\n') });
  const ok = await spawnCli(['validate', '--junit', 'report.xml', '--quiet', 'accounts.csv'], { cwd: dir });
  expect(ok.code, ok.stderr).toBe(0);
  const xml = readFileSync(join(dir, 'report.xml'), 'utf8');
  await validJunit(xml);
  expect(xml).toContain('<system-out>500 rows read: 500 valid, 0 rejected, 0 invalid, 0 skipped, 501 warnings</system-out>');
  const warnings = /<system-err>([^<]*)<\/system-err>/.exec(xml)?.[1] ?? '';
  expect(warnings).toContain('500 warnings: type: &quot;…&quot; is not among the values the API documents');
  expect(warnings).toContain('accounts.csv:3  type: &quot;PARTNER&quot; is not among');
  expect(warnings).toContain('accounts.csv:5  type: &quot;PARTNER&quot;');
  expect(warnings).not.toContain('accounts.csv:6 ');
  expect(warnings).toContain('… and 497 more');
  expect(warnings).toMatch(/1 warning: .*header/);

  const github = await spawnCli(['validate', '--format', 'github', 'accounts.csv'], { cwd: dir });
  expect(github.code).toBe(0);
  const annotations = parseWorkflowCommands(github.stdout).filter((c) => c.command === 'warning');
  expect(annotations.filter((a) => a.message.includes('PARTNER'))).toHaveLength(3);
  expect(annotations.map((a) => a.properties.line).sort()).toEqual(['2', '3', '4', '5']);
});
