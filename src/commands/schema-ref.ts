// The `$schema` init writes into a profile or plan, so that an editor completes and checks the file
// against the copy of schemas/ that ran (beside bin/ and dist/ in the package). Never a path of this
// machine alone: a path relative to the file when that copy belongs to the file's project — installed
// in it (<project>/node_modules/batch-sync/), or the file is inside the copy's own folder (this
// checkout) — which still resolves when the project is cloned elsewhere; anywhere else (a global
// install, npx, a file outside the project) no `$schema` at all, and init says so once
// (`NO_SCHEMA_NOTE`). docs/schemas.md says so to users.
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SCHEMA_FILES = { plan: 'batch-sync.config.schema.json', profile: 'profile.schema.json' } as const;

// src/commands/ and dist/commands/ are both two levels below the package's root
const INSTALLED = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** What init says, once, when it wrote a file without `$schema`. */
export const NO_SCHEMA_NOTE =
  'no "$schema" line written: batch-sync is not installed in this project, and a path to the copy that ran would hold on this machine only; ' +
  'npm install --save-dev batch-sync and run init again, or map the files to the schemas in your editor (docs/schemas.md)';

/** `$schema` for a `kind` file written at `file`, or undefined where only a path of this machine would do; `schemas` is where the copy is (for tests). */
export function schemaRef(kind: keyof typeof SCHEMA_FILES, file: string, schemas: string = INSTALLED): string | undefined {
  const target = resolve(schemas, SCHEMA_FILES[kind]);
  const pkg = dirname(resolve(schemas));
  const modules = dirname(pkg);
  // installed: the project that holds node_modules/; else the copy's own folder (a checkout)
  const project = basename(modules) === 'node_modules' ? dirname(modules) : pkg;
  const from = dirname(resolve(file));
  const within = relative(project, from);
  if (isAbsolute(within) || within.split(sep)[0] === '..') return undefined;
  const path = relative(from, target).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}
