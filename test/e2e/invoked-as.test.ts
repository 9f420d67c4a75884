// Hints and --help examples are pasted as they are printed: they name batch-sync the way the user ran
// it. Through npx (or `npm exec`) they say `npx batch-sync …`, from a command on PATH (a global
// install, `npm link`) `batch-sync …`, run by a path under the working folder that path
// (`./bin/batch-sync.js` in a clone), run by a path elsewhere that path as it works from the working
// folder (`../batch-sync/bin/batch-sync.js`, or absolute), quoted for the shell when it needs it, and
// when nothing says how (a test runner calling main()), the README's form, `./bin/batch-sync.js …`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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
    // only the root in common: the absolute path says more than ../elsewhere/…
    ['a path outside the working folder', {}, '/elsewhere/bin/batch-sync.js', '/elsewhere/bin/batch-sync.js'],
    ['a script of another name (a test runner calling main())', {}, '/w/node_modules/vitest/vitest.mjs', DOCUMENTED_COMMAND],
  ])('%s', (_, env, script, expected) => {
    expect(invocation(env, script, '/w')).toBe(expected);
  });

  test.each([
    ['a sibling folder', '/home/u/exports', '/home/u/batch-sync/bin/batch-sync.js', '../batch-sync/bin/batch-sync.js'],
    ['two folders up', '/home/u/exports/2026', '/home/u/batch-sync/bin/batch-sync.js', '../../batch-sync/bin/batch-sync.js'],
    ['three folders up: absolute', '/home/u/a/b/c', '/home/u/batch-sync/bin/batch-sync.js', '/home/u/batch-sync/bin/batch-sync.js'],
    ["a project's node_modules/.bin from beside it", '/srv/exports', '/srv/app/node_modules/.bin/batch-sync', '../app/node_modules/.bin/batch-sync'],
    ['a folder named ..x under the working folder', '/w', '/w/..x/bin/batch-sync.js', './..x/bin/batch-sync.js'],
    ['spaces, quoted', '/home/u/exports', '/home/u/My Tools/batch-sync/bin/batch-sync.js', "'../My Tools/batch-sync/bin/batch-sync.js'"],
    ['a quote in the path', '/w', "/opt/bob's/bin/batch-sync.js", "'/opt/bob'\\''s/bin/batch-sync.js'"],
    ['shell characters in the path', '/w', '/opt/a$b(1)/bin/batch-sync.js', "'/opt/a$b(1)/bin/batch-sync.js'"],
    ['a tilde is not a home folder here', '/w', '/w/~x/bin/batch-sync.js', "'./~x/bin/batch-sync.js'"],
  ])('run by its path from another folder: %s', (_, cwd, script, expected) => {
    expect(invocation({}, script, cwd)).toBe(expected);
  });

  test('a script without the executable bit (node bin/batch-sync.js in an unpacked archive): node before its path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'invoked-'));
    mkdirSync(join(dir, 'bin'));
    writeFileSync(join(dir, 'bin/batch-sync.js'), '');
    chmodSync(join(dir, 'bin/batch-sync.js'), 0o644);
    expect(invocation({}, join(dir, 'bin/batch-sync.js'), dir)).toBe('node ./bin/batch-sync.js');
    chmodSync(join(dir, 'bin/batch-sync.js'), 0o755);
    expect(invocation({}, join(dir, 'bin/batch-sync.js'), dir)).toBe('./bin/batch-sync.js');
  });

  test('asInvoked rewrites commands, never the report title, the summary line or a name already prefixed', () => {
    expect(asInvoked('check them with: batch-sync validate deals.csv --resource <kind>', 'npx batch-sync')).toBe(
      'check them with: npx batch-sync validate deals.csv --resource <kind>',
    );
    expect(asInvoked('Run `batch-sync <command> --help`', 'npx batch-sync')).toBe('Run `npx batch-sync <command> --help`');
    for (const same of ['batch-sync push: run r OK exit=0', 'npx batch-sync push x', './bin/batch-sync push x', 'Usage: batch-sync [options]']) {
      expect(asInvoked(same, 'npx batch-sync')).toBe(same);
    }
    // a path is put in as it is: `$&` is no replacement pattern here
    expect(asInvoked('run batch-sync push x', "'/opt/a$&b/bin/batch-sync.js'")).toBe("run '/opt/a$&b/bin/batch-sync.js' push x");
  });
});

describe('what the user sees', () => {
  const examples = (help: string) => help.slice(help.lastIndexOf('\nExamples:\n')).split('\n').slice(2).filter(Boolean);

  test('push --help run as bin/batch-sync.js from the clone: examples as typed, ./bin/batch-sync.js; from elsewhere, its path from there', async () => {
    const r = await spawnCli(['push', '--help'], { cwd: join(BIN, '../..') });
    expect(r.code).toBe(0);
    for (const line of examples(r.stdout)) expect(line).toMatch(/^ {2}\.\/bin\/batch-sync\.js push /);
    const away = await spawnCli(['push', '--help'], { cwd: tmpdir() });
    for (const line of examples(away.stdout)) {
      expect(line.startsWith(`  ${invocation({}, BIN, tmpdir())} push `), line).toBe(true);
      expect(existsSync(resolve(tmpdir(), line.trim().split(' ')[0]!)), line).toBe(true);
    }
  });

  test('init run from another folder (cd exports && "../batch sync/bin/batch-sync.js" init …): the next step pasted there runs', async () => {
    // the clone beside the exports folder, under a name a shell must have quoted
    const home = mkdtempSync(join(tmpdir(), 'invoked-'));
    symlinkSync(dirname(dirname(BIN)), join(home, 'batch sync'));
    const exports = join(home, 'exports');
    mkdirSync(exports);
    writeFileSync(join(exports, 'deals.csv'), dealsCsv(3));
    const script = join(home, 'batch sync/bin/batch-sync.js');
    const env = { ...process.env, NO_COLOR: '1' };
    const init = spawnSync(process.execPath, [script, 'init', 'deals.csv', '--resource', 'deal'], { cwd: exports, encoding: 'utf8', env });
    expect(init.status, init.stderr).toBe(0);
    const next = /^next(?: \(after filling in\))?: (.+ validate deals\.csv --profile \S+)$/m.exec(init.stdout)?.[1];
    expect(next, init.stdout).toBe("'../batch sync/bin/batch-sync.js' validate deals.csv --profile deals.profile.json");
    const pasted = spawnSync('sh', ['-c', next!], { cwd: exports, encoding: 'utf8', env });
    expect(pasted.stderr).not.toMatch(/not found|No such file|Permission denied/);
    expect([0, 1, 2], `${pasted.status}: ${pasted.stderr}`).toContain(pasted.status);
    expect(`${pasted.stdout}${pasted.stderr}`).toMatch(/deals\.csv/);
  });

  test('a file name a shell would split ("my deals.csv", a folder "Q3 exports"): the next steps quote it, and pasted they run', async () => {
    const home = mkdtempSync(join(tmpdir(), 'invoked-'));
    const exports = join(home, 'Q3 exports');
    mkdirSync(exports);
    writeFileSync(join(exports, 'my deals.csv'), dealsCsv(3));
    const env = { ...process.env, NO_COLOR: '1' };
    const one = spawnSync(process.execPath, [BIN, 'init', 'my deals.csv', '--resource', 'deal'], { cwd: exports, encoding: 'utf8', env });
    expect(one.status, one.stderr).toBe(0);
    const next = /^next(?: \(after filling in\))?: \S+ (validate .+)$/m.exec(one.stdout)?.[1];
    expect(next, one.stdout).toBe("validate 'my deals.csv' --profile 'my deals.profile.json'");
    const pasted = spawnSync('sh', ['-c', `${process.execPath} ${BIN} ${next}`], { cwd: exports, encoding: 'utf8', env });
    expect(pasted.stderr).not.toMatch(/no such file|not found|ENOENT/i);
    // several files: the plan's path, from the folder above
    writeFileSync(join(exports, 'sales reps.csv'), 'Id,First Name,Last Name,Email\nU1,Ann,Lee,ann@example.com\n');
    const many = spawnSync(process.execPath, [BIN, 'init', 'Q3 exports/sales reps.csv', 'Q3 exports/my deals.csv', '--force'], {
      cwd: home,
      encoding: 'utf8',
      env,
    });
    expect(many.status, many.stderr).toBe(0);
    expect(many.stdout).toMatch(/^next(?: \(after filling in\))?: \S+ push --config 'Q3 exports\/batch-sync\.config\.json' {3}\(/m);
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
