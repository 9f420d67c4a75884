// Hints and --help examples are pasted as they are printed: they name batch-sync the way the user ran
// it. Through npx (or `npm exec`) they say `npx batch-sync …`, from a command on PATH (a global
// install, `npm link`) `batch-sync …`, run by a path under the working folder that path
// (`./bin/batch-sync.js` in a clone), and otherwise the README's form, `./bin/batch-sync.js …`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { DOCUMENTED_COMMAND, invocation } from '../../src/config/environment.js';
import { asInvoked } from '../../src/report/terminal-text.js';
import { BIN, dealsCsv, spawnCli, tempFiles } from '../helpers/cli.js';

describe('invocation: how the user ran batch-sync', () => {
  test.each([
    [
      'npx batch-sync push',
      { npm_command: 'exec', npm_lifecycle_event: 'npx', npm_lifecycle_script: 'batch-sync' },
      '/w/node_modules/.bin/batch-sync',
      'npx batch-sync',
    ],
    ['npm exec (npm quotes the name)', { npm_command: 'exec', npm_lifecycle_script: "'batch-sync'" }, '/w/node_modules/.bin/batch-sync', 'npx batch-sync'],
    // a test runner started by npx runs us as a child: the exec is its, not ours
    ['a child of npx vitest', { npm_command: 'exec', npm_lifecycle_script: 'vitest run' }, '/w/bin/batch-sync.js', DOCUMENTED_COMMAND],
    ['a global install or npm link', {}, '/usr/local/bin/batch-sync', 'batch-sync'],
    ['./node_modules/.bin/batch-sync', {}, '/w/node_modules/.bin/batch-sync', './node_modules/.bin/batch-sync'],
    ['node bin/batch-sync.js', {}, '/w/bin/batch-sync.js', './bin/batch-sync.js'],
    [
      'an npm script',
      { npm_command: 'run-script', npm_lifecycle_script: 'batch-sync push' },
      '/w/node_modules/.bin/batch-sync',
      './node_modules/.bin/batch-sync',
    ],
    ['a path outside the working folder', {}, '/elsewhere/bin/batch-sync.js', DOCUMENTED_COMMAND],
  ])('%s', (_, env, script, expected) => {
    expect(invocation(env, script, '/w')).toBe(expected);
  });

  test('asInvoked rewrites commands, never the report title, the summary line or a name already prefixed', () => {
    expect(asInvoked('check them with: batch-sync validate deals.csv --resource <kind>', 'npx batch-sync')).toBe(
      'check them with: npx batch-sync validate deals.csv --resource <kind>',
    );
    expect(asInvoked('Run `batch-sync <command> --help`', 'npx batch-sync')).toBe('Run `npx batch-sync <command> --help`');
    for (const same of ['batch-sync push: run r OK exit=0', 'npx batch-sync push x', './bin/batch-sync push x', 'Usage: batch-sync [options]']) {
      expect(asInvoked(same, 'npx batch-sync')).toBe(same);
    }
  });
});

describe('what the user sees', () => {
  const examples = (help: string) => help.slice(help.lastIndexOf('\nExamples:\n')).split('\n').slice(2).filter(Boolean);

  test('push --help run as bin/batch-sync.js from the clone: examples as typed, ./bin/batch-sync.js; from elsewhere, the documented form', async () => {
    const r = await spawnCli(['push', '--help'], { cwd: join(BIN, '../..') });
    expect(r.code).toBe(0);
    for (const line of examples(r.stdout)) expect(line).toMatch(/^ {2}\.\/bin\/batch-sync\.js push /);
    const away = await spawnCli(['push', '--help'], { cwd: tmpdir() });
    for (const line of examples(away.stdout)) expect(line).toMatch(new RegExp(`^ {2}${DOCUMENTED_COMMAND.replace(/[./]/g, '\\$&')} push `));
  });

  test('through npx: examples, the top-level hint and an error suggestion say npx batch-sync', async () => {
    const env = { npm_command: 'exec', npm_lifecycle_event: 'npx', npm_lifecycle_script: 'batch-sync' };
    const help = await spawnCli(['validate', '--help'], { env });
    for (const line of examples(help.stdout)) expect(line).toMatch(/^ {2}npx batch-sync validate /);
    const top = await spawnCli(['--help'], { env });
    expect(top.stdout).toContain('  npx batch-sync push --sandbox --config fixtures/crm-sales-opportunities/batch-sync.config.json');
    expect(top.stdout).toContain('Run `npx batch-sync <command> --help`');
    const missing = await spawnCli(['validate', 'deals.csv', '--profile', 'no-such.profile.json'], { env, cwd: tempFiles({ 'deals.csv': dealsCsv(1) }) });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ {2}check the path, or create one with: npx batch-sync init <file> --resource <kind>$/m);
  });

  test('from a batch-sync on PATH (a global install): examples say batch-sync, as typed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invoked-'));
    symlinkSync(BIN, join(dir, 'batch-sync'));
    const stdout = execFileSync('sh', ['-c', 'batch-sync inspect --help'], {
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}`, NO_COLOR: '1' },
    }).toString();
    for (const line of examples(stdout)) expect(line).toMatch(/^ {2}batch-sync inspect /);
  });
});
