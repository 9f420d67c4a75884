// The environment that shapes what the terminal gets, read here so report/ and commands/ are
// handed plain values (only config/ and bin/ read process.env).
import { accessSync, constants } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { shellWord } from '../util/shell-word.js';

/**
 * No colour at all, whatever chalk would detect: `--no-color` on the command line, `FORCE_COLOR=0`,
 * or, unless FORCE_COLOR asks for colour (the more explicit of the two), `NO_COLOR` set to anything
 * (no-color.org) or `TERM=dumb`. chalk itself reads FORCE_COLOR and `--no-color`, but not NO_COLOR.
 */
export function plainTerminal(env: Record<string, string | undefined> = process.env, argv: readonly string[] = process.argv): boolean {
  if (argv.includes('--no-color') || env.FORCE_COLOR === '0' || env.FORCE_COLOR === 'false') return true;
  if (env.FORCE_COLOR) return false;
  return Boolean(env.NO_COLOR) || env.TERM === 'dumb';
}

/** Running in a GitHub Actions step: the runner reads every line printed for workflow commands (report/workflow-guard.ts). */
export function githubActions(env: Record<string, string | undefined> = process.env): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** The sandbox's key when --api-key is not given (config/sandbox-options.ts); an empty value counts as unset. */
export const SANDBOX_KEY_ENV = 'BATCH_SYNC_SANDBOX_API_KEY';

/** This process's environment, for the options read from it (config/option.ts resolveOptions). */
export function processEnv(): Record<string, string | undefined> {
  return process.env;
}

/** How the README runs batch-sync from a clone: what hints and examples print when nothing says how it was run. */
export const DOCUMENTED_COMMAND = './bin/batch-sync.js';

/**
 * How the user ran batch-sync, so the commands hints and examples print can be pasted as they are.
 * `npx batch-sync` / `npm exec batch-sync`: npm sets npm_command=exec and npm_lifecycle_script to the
 * command it runs (a child of `npx vitest` inherits npm_command=exec too, but with its own script).
 * A `batch-sync` on PATH outside node_modules (a global install, `npm link`): the name alone. The
 * executable named by a path (`./bin/batch-sync.js` in a clone, `./node_modules/.bin/batch-sync` in a
 * project, `../batch-sync/bin/batch-sync.js` from a folder beside the clone): that path as it works
 * from the working folder (scriptPath), quoted for the shell when it must be, after `node ` when the
 * file is not executable (`node bin/batch-sync.js` in an unpacked archive). Anything else (a test
 * runner calling main()): the documented form.
 */
export function invocation(
  env: Record<string, string | undefined> = process.env,
  script: string | undefined = process.argv[1],
  cwd: string = process.cwd(),
): string {
  const first = env.npm_lifecycle_script
    ?.trim()
    .split(/\s+/)[0]
    ?.replace(/^['"]|['"]$/g, '');
  if (env.npm_command === 'exec' && first === 'batch-sync') return 'npx batch-sync';
  const parts = script?.split(/[\\/]/) ?? [];
  if (parts.at(-1) === 'batch-sync' && !parts.includes('node_modules')) return 'batch-sync';
  if (!script || !/^batch-sync(\.js)?$/.test(parts.at(-1) ?? '')) return DOCUMENTED_COMMAND;
  const word = shellWord(scriptPath(resolve(cwd, script), cwd));
  return runsByItself(script) ? word : `node ${word}`;
}

/**
 * The script's path from the working folder: `./…` below it; `../…` up to two folders up, short and
 * still true when the two folders move together; otherwise, and whenever the only folder in common is
 * the root, the absolute path. (Paths with `..` are read by the kernel through the real folders, as
 * process.cwd() names them.)
 */
function scriptPath(script: string, cwd: string): string {
  const from = relative(cwd, script).split(sep).join('/');
  const up = /^(?:\.\.(?:\/|$))*/.exec(from)![0].split('/').filter(Boolean).length;
  if (up === 0) return `./${from}`;
  const depth = cwd.split(sep).filter(Boolean).length;
  return up <= 2 && up < depth ? from : script;
}

/** False only for a file there without an executable bit: it runs by `node <path>`, not by its path. */
function runsByItself(script: string): boolean {
  try {
    accessSync(script, constants.X_OK);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EACCES';
  }
}
