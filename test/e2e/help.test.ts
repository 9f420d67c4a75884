// The help text is part of the product: what a new user reads first must name the commands, the
// way to start without an account, the exit codes, and where the key comes from.
import { expect, test } from 'vitest';
import { spawnCli } from '../helpers/cli.js';

test('top-level help lists the commands, the first command to run and the exit codes', async () => {
  const r = await spawnCli(['--help']);
  expect(r.code).toBe(0);
  for (const command of ['push', 'validate', 'init', 'history', 'schema', 'sandbox']) expect(r.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
  expect(r.stdout).toContain('./bin/batch-sync.js push --sandbox --config fixtures/crm-sales-opportunities/batch-sync.config.json');
  expect(r.stdout).toMatch(
    /Exit codes: 0 all accepted \(or valid\), 1 some rows not accepted, 2 usage, config\nor input error before sending, 3 run aborted, 4 another run holds the lock\./,
  );
});

test('push --help says where the key comes from, never as a flag value, and what each exit code means', async () => {
  const r = await spawnCli(['push', '--help-all']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/--api-key-file <file>\s+file holding the API key, mode 600/);
  expect(r.stdout).not.toMatch(/--api-key </);
  expect(r.stdout).toMatch(/BATCH_SYNC_API_KEY\s+the API key, when --api-key-file is not given/);
  expect(r.stdout).toMatch(/4 another run holds the state directory/);
  for (const flag of ['--sandbox', '--dry-run', '--errors', '--incremental', '--concurrency', '--batch-size', '--no-hold-dependents', '--max-rejection-rate']) {
    expect(r.stdout).toContain(flag);
  }
});

test('a usage error says what is wrong in one line and exits 2', async () => {
  const r = await spawnCli(['push', '--batch-size', 'lots', 'deals.csv']);
  expect(r.code).toBe(2);
  expect(r.stderr.trim().split('\n')[0]).toBe('error: --batch-size takes a whole number');
  expect(r.stderr).not.toMatch(/^\s+at /m);
  const unknown = await spawnCli(['pusj']);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toMatch(/unknown command 'pusj'/);
});

test('push --help and sandbox --help say how answers are read, and that isolation resends rows', async () => {
  const push = await spawnCli(['push', '--help-all']);
  const text = push.stdout.replace(/\s+/g, ' ');
  expect(text).toMatch(
    /--answers <style> how the API answers \(documented: .*; named: .*\); with --sandbox, the sandbox answers so too \(choices: "documented", "named"\)/,
  );
  expect(text).toMatch(/--isolate-unattributed .*RESENDS rows the server may already have applied: use it only when POST\/PATCH replace by externalId/);
  expect(text).toMatch(/--isolation-budget <n> .*default 5000/);
  const sandbox = await spawnCli(['sandbox', '--help-all']);
  expect(sandbox.stdout.replace(/\s+/g, ' ')).toMatch(
    /--answers <style> .*documented: as the real API's documentation shows: .*\(choices: "documented", "named", default: "named"\)/,
  );
});

test('push and sandbox describe the answer styles in the same words, and refuse another style alike', async () => {
  const styles = (help: string) => {
    const text = help.replace(/\s+/g, ' ');
    return ['documented', 'named'].map((style) => new RegExp(`${style}: ([^;()]*)`).exec(text.slice(text.indexOf('--answers <style>')))?.[1]?.trim());
  };
  const push = styles((await spawnCli(['push', '--help-all'])).stdout);
  const sandbox = styles((await spawnCli(['sandbox', '--help-all'])).stdout);
  expect(push.every((words) => words !== undefined && words.length > 20)).toBe(true);
  expect(sandbox).toEqual(push);
  const refusals = await Promise.all(
    [
      ['push', '--answers', 'bogus', 'deals.csv'],
      ['sandbox', '--answers', 'bogus'],
    ].map((args) => spawnCli(args)),
  );
  for (const r of refusals) {
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe("error: option '--answers <style>' argument 'bogus' is invalid. Allowed choices are documented, named.");
  }
});

test('validate and push --help offer --engine and say the outputs are the same; a bad engine is a usage error', async () => {
  for (const command of ['validate', 'push']) {
    const help = (await spawnCli([command, '--help-all'])).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(
      /--engine <engine> simple: one thread, csv-parse, zod; fast: a read worker and fast paths; auto: fast paths, the worker for large inputs\. Same output \(default: auto\)/,
    );
  }
  expect((await spawnCli(['push', '--help-all'])).stdout).toMatch(/BATCH_SYNC_ENGINE\s+simple, fast or auto, when --engine is not given/);
  const bad = await spawnCli(['validate', 'deals.csv'], { env: { BATCH_SYNC_ENGINE: 'turbo' } });
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim()).toBe('error: BATCH_SYNC_ENGINE takes simple, fast or auto, not "turbo"');
});

test('push --help names the CI and cron options and their environment variables; history --help its own', async () => {
  const push = (await spawnCli(['push', '--help-all'])).stdout;
  expect(push).toMatch(/--format <format>\s+report format; github: workflow annotations and a\s+step summary \(choices: "human", "json", "github"/);
  expect(push).toMatch(/--junit <file>\s+also write the report as JUnit XML here/);
  expect(push).toMatch(/--notify-on <when>\s+when --notify-url is posted to: failure \(exit code\s+not 0\) or always/);
  expect(push).toMatch(
    /--ping-url <url>\s+ping URL\/start once the run holds its lock, URL on\s+success, URL\/fail on failure, each with\s+\?rid=<run's\s+UUID>/,
  );
  expect(push).toMatch(/--notify-format <format>\s+the body --notify-url gets: slack \(\{text\}\), teams\s+\(an Adaptive Card, for Teams Workflows\)/);
  expect(push).toMatch(/BATCH_SYNC_NOTIFY_URL where to post the end-of-run summary/);
  expect(push).toMatch(/BATCH_SYNC_PING_URL\s+the healthchecks-style ping URL/);
  const validate = (await spawnCli(['validate', '--help-all'])).stdout;
  expect(validate).toContain('--junit <file>');
  expect(validate).not.toContain('--notify-url');
  const history = await spawnCli(['history', '--help']);
  expect(history.code).toBe(0);
  for (const flag of ['--state-dir <dir>', '--report-dir <dir>', '--last <n>', '--format <format>', '-c, --config <file>'])
    expect(history.stdout).toContain(flag);
});

test('push --help is short and grouped by task, the examples last; --help-all lists every option with what it does', async () => {
  const r = await spawnCli(['push', '--help']);
  expect(r.code).toBe(0);
  const lines = r.stdout.trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(45);
  const headings = lines.map((l) => /^([A-Z][\w ]*): {2}/.exec(l)?.[1]).filter(Boolean);
  expect(headings).toEqual(['Input', 'Mapping', 'Sending', 'Reports', 'Nightly runs', 'CI', 'Help', 'Arguments']);
  expect(r.stdout).toMatch(/^Sending: .*--batch-size <n>/m);
  expect(r.stdout).toMatch(/^Nightly runs: .*--incremental/m);
  expect(r.stdout).toContain('Every option with what it does: ./bin/batch-sync.js push --help-all');
  for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(100 + 120 * Number(line.startsWith('  ./bin/batch-sync.js')));
  expect(lines.at(-4)).toBe('Examples:');
  const all = await spawnCli(['push', '--help-all']);
  expect(all.code).toBe(0);
  for (const heading of ['Input:', 'Mapping:', 'Sending:', 'Reports:', 'Nightly runs:', 'CI:']) expect(all.stdout).toMatch(new RegExp(`^${heading}$`, 'm'));
  expect(all.stdout).toMatch(/--batch-size <n>\s+items per batch \(default 100\)/);
  expect(all.stdout.indexOf('Input:')).toBeLessThan(all.stdout.indexOf('Mapping:'));
  expect(all.stdout.indexOf('Nightly runs:')).toBeLessThan(all.stdout.indexOf('CI:'));
});
