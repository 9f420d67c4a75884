// batch-sync as people install and run it. The package is packed as it would be published (from a
// copy of the checkout, so the checkout's dist/ is never rebuilt under other tests), installed into a
// project and globally into a temporary prefix, all with a temporary npm cache: the user's ~/.npm is
// neither read for the package nor written. Then a push through each way of running it documented in
// README.md and docs/nightly.md, docs/ci.md is stopped by SIGINT and SIGTERM: each returns batch-sync's
// own exit code (3), except npx and npm exec, which end on the signal themselves (documented), and
// no batch-sync process outlives its caller.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type MisbehavingServer, type RecordedRequest } from '../helpers/misbehaving-server.js';
import { SALES_PROFILES_CSV, dealsCsv } from '../helpers/cli.js';
import { copyOfCheckout } from '../helpers/checkout-copy.js';

const ROOT = resolve(__dirname, '../..');
const KEY = 'installed-forms-key-0123456789';
const work = mkdtempSync(join(tmpdir(), 'batch-sync-installed-'));
const cache = join(work, 'npm-cache');
const prefix = join(work, 'prefix');
const project = join(work, 'project');
const npmEnv = { ...process.env, npm_config_cache: cache, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
// how batch-sync is installed and signalled does not depend on the engine (which reads rows): this
// file runs in the simple pass only (CI runs that on Node 20 and 24), as it packs and installs from
// the registry, about 4 minutes
const RUN = process.env.BATCH_SYNC_ENGINE !== 'fast';
let tarball = '';
let globalInstall = { status: -1 as number | null, output: '' };

afterAll(() => rmSync(work, { recursive: true, force: true }));

function npm(args: string[], cwd: string): { status: number | null; output: string } {
  const r = spawnSync('npm', args, { cwd, env: npmEnv, encoding: 'utf8', timeout: 240_000 });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
}

beforeAll(() => {
  if (!RUN) return;
  // a copy of the checkout, with the checkout's node_modules to build with
  const repo = copyOfCheckout(join(work, 'repo'));
  symlinkSync(join(ROOT, 'node_modules'), join(repo, 'node_modules'));
  const packed = npm(['pack', '--pack-destination', work], repo);
  expect(packed.status, packed.output).toBe(0);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz'))!);
  globalInstall = npm(['install', '-g', '--prefix', prefix, tarball], work);
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'crm-sync', private: true }));
  const local = npm(['install', tarball], project);
  expect(local.status, local.output).toBe(0);
}, 600_000);

describe.runIf(RUN)('the packed package', () => {
  test('carries dist/, the LICENSE and no install-time script, so npm install -g prints no warning', () => {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' }));
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect(manifest.scripts?.[script], script).toBeUndefined();
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listed).toContain('package/LICENSE');
    expect(listed).toContain('package/dist/main.js');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 batch-sync contributors\n/);
    expect(globalInstall.status, globalInstall.output).toBe(0);
    expect(globalInstall.output).not.toMatch(/\bwarn/i);
    // the clone's package.json still builds dist/ on npm ci
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.prepare).toBe('npm run build');
  });

  test('the global command runs from the temporary prefix', () => {
    const dir = mkdtempSync(join(work, 'run-'));
    writeFileSync(join(dir, 'deals.csv'), dealsCsv(3));
    const r = spawnSync(join(prefix, 'bin/batch-sync'), ['validate', 'deals.csv'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/OK: all 3 rows valid/);
  });
});

/** Each documented way of running a push, as the argv a caller spawns (a shell line for cron and CI). */
const FORMS: Record<string, { argv: (args: string) => string[]; cwd: () => string; ownExitCode: boolean }> = {
  'the clone: ./bin/batch-sync.js': { argv: (a) => ['sh', '-c', `exec ./bin/batch-sync.js ${a}`], cwd: () => ROOT, ownExitCode: true },
  './node_modules/.bin/batch-sync': { argv: (a) => ['sh', '-c', `exec ./node_modules/.bin/batch-sync ${a}`], cwd: () => project, ownExitCode: true },
  'a global install': { argv: (a) => ['sh', '-c', `exec ${prefix}/bin/batch-sync ${a}`], cwd: () => work, ownExitCode: true },
  'a crontab line': {
    argv: (a) => ['sh', '-c', `cd ${project} && exec ./node_modules/.bin/batch-sync ${a} >> ${work}/cron.log 2>&1`],
    cwd: () => work,
    ownExitCode: true,
  },
  'a CI step (bash -eo pipefail)': {
    argv: (a) => {
      const script = join(work, `step-${randomBytes(4).toString('hex')}.sh`);
      writeFileSync(script, `exec ./node_modules/.bin/batch-sync ${a}\n`);
      return ['bash', '--noprofile', '--norc', '-eo', 'pipefail', script];
    },
    cwd: () => project,
    ownExitCode: true,
  },
  'npx batch-sync': { argv: (a) => ['sh', '-c', `exec npx batch-sync ${a}`], cwd: () => project, ownExitCode: false },
  'npm exec batch-sync': { argv: (a) => ['sh', '-c', `exec npm exec -- batch-sync ${a}`], cwd: () => project, ownExitCode: false },
};

/** Processes whose environment holds `mark`: what a case started and may have left behind. */
function processesMarked(mark: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`).includes(mark)) found.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return found;
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

const isDeals = (req: RecordedRequest) => req.path.endsWith('/deals');
const items = (req: RecordedRequest) => (JSON.parse(req.body.toString()).items as unknown[]).length;

const cases = Object.keys(FORMS).flatMap((form) =>
  (['SIGINT', 'SIGTERM'] as const).flatMap((signal) => (['group', 'pid'] as const).map((to) => ({ form, signal, to }))),
);

describe.runIf(RUN).each(cases)('$form, $signal to the $to', ({ form, signal, to }) => {
  let server: MisbehavingServer | undefined;
  afterAll(() => server?.close());

  test('returns its exit code and leaves no batch-sync process behind', async () => {
    server = await startServer([], {
      respond: (req) => ({ status: 200, delayMs: 300, body: { data: { code: 200, success: items(req), error: [] }, status: 'SUCCESS' } }),
    });
    const dir = mkdtempSync(join(work, 'case-'));
    writeFileSync(join(dir, 'sales-profiles.csv'), SALES_PROFILES_CSV);
    // 20,000 rows at 300 ms a batch of 50, two at a time: a minute, if nothing stopped it
    writeFileSync(join(dir, 'deals.csv'), dealsCsv(20_000));
    const mark = `BATCH_SYNC_FORM_CASE=${randomBytes(8).toString('hex')}`;
    const { argv, cwd, ownExitCode } = FORMS[form]!;
    const args = `push --incremental --batch-size 50 --concurrency 2 --state-dir ${dir}/state ${dir}/sales-profiles.csv ${dir}/deals.csv`;
    const [command, ...rest] = argv(args);
    const child: ChildProcess = spawn(command!, rest, {
      cwd: cwd(),
      detached: true,
      stdio: ['ignore', 'ignore', 'ignore'],
      env: { ...npmEnv, NO_COLOR: '1', BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server.url, [mark.split('=')[0]!]: mark.split('=')[1] },
    });
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, s) => done({ code, signal: s })));
    const killer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 90_000);
    try {
      expect(await until(() => server!.requests.some(isDeals), 60_000), 'the push began sending deals').toBe(true);
      process.kill(to === 'group' ? -child.pid! : child.pid!, signal);
      if (!ownExitCode && signal === 'SIGINT' && to === 'pid') {
        // documented (docs/nightly.md): npm passes a SIGINT sent to it alone to the shell it runs
        // batch-sync in, which ignores it, and waits; a Ctrl-C reaches the whole group (the case above)
        await new Promise((r) => setTimeout(r, 1500));
        expect(child.exitCode, 'npm still waits for batch-sync').toBeNull();
        process.kill(-child.pid!, 'SIGTERM');
      }
      const { code, signal: killedBy } = await ended;
      if (ownExitCode) expect({ code, killedBy }).toEqual({ code: 3, killedBy: null });
      // npm ends on the signal itself, or with 130 after its child: never batch-sync's 0 or 1
      else expect(code === 3 || code === 130 || code === 143 || killedBy !== null, `${code} ${killedBy}`).toBe(true);
      // the caller has ended: batch-sync has too (an orphan of npx notices within a second and stops)
      const gone = await until(() => processesMarked(mark).length === 0, ownExitCode ? 1000 : 8000);
      expect(gone, `left running: ${processesMarked(mark).join(', ')}`).toBe(true);
      // and it stopped as for a signal: the lock released
      expect(existsSync(join(dir, 'state', 'lock'))).toBe(false);
    } finally {
      clearTimeout(killer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 120_000);
});
