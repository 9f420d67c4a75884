// The tests run src/ through vitest, but two things run the build in dist/: the read worker (a
// worker thread cannot load TypeScript; src/rows/read-in-worker.ts falls back to dist/) and every
// test that spawns bin/batch-sync.js. A dist/ older than src/ would test yesterday's code while
// looking green, so it is rebuilt here first, and a build that fails stops the run.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The first source whose build is missing or older than it, if any. */
export function staleSource(root = ROOT): string | undefined {
  const src = join(root, 'src');
  for (const file of sources(src)) {
    const built = join(root, 'dist', relative(src, file)).replace(/\.ts$/, '.js');
    if (!existsSync(built) || statSync(built).mtimeMs < statSync(file).mtimeMs) return relative(root, file);
  }
  return undefined;
}

/**
 * The run's temporary files go into one folder of their own, removed when the run ends: tests make
 * hundreds of temporary folders (and the CLIs they spawn more), and left in the system's temporary
 * directory they piled up by the ten thousand. Workers and spawned processes inherit TMPDIR.
 */
function ownTempDir(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'batch-sync-tests-'));
  process.env.TMPDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

export default function setup(): () => void {
  const teardown = ownTempDir();
  build();
  return teardown;
}

function build(): void {
  const stale = staleSource();
  if (stale === undefined) return;
  process.stderr.write(`dist/ is older than ${stale}: building first (npm run build)\n`);
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    const out = (error as { stdout?: Buffer }).stdout?.toString() ?? String(error);
    throw new Error(`the build failed, so the tests would run a stale or missing dist/:\n${out}`);
  }
}
