// The `$schema` init writes into a profile or plan, so that an editor completes and checks the file
// against the installed copy of schemas/ (beside bin/ and dist/ in the package): a path relative to
// the file when batch-sync is installed in the file's own project (<project>/node_modules/batch-sync/,
// so the line still resolves when the project is cloned elsewhere), else the absolute file:// URL of
// the copy (a global install, npx, this checkout). docs/schemas.md says so to users.
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const SCHEMA_FILES = { plan: 'batch-sync.config.schema.json', profile: 'profile.schema.json' } as const;

// src/commands/ and dist/commands/ are both two levels below the package's root
const INSTALLED = fileURLToPath(new URL('../../schemas/', import.meta.url));

/** `$schema` for a `kind` file written at `file`; `schemas` is where the copy is (for tests). */
export function schemaRef(kind: keyof typeof SCHEMA_FILES, file: string, schemas: string = INSTALLED): string {
  const target = resolve(schemas, SCHEMA_FILES[kind]);
  const pkg = dirname(resolve(schemas));
  const modules = dirname(pkg);
  const project = basename(modules) === 'node_modules' ? dirname(modules) : undefined;
  const from = dirname(resolve(file));
  const within = project === undefined ? undefined : relative(project, from);
  const inside = within !== undefined && !isAbsolute(within) && within.split(sep)[0] !== '..';
  if (!inside) return pathToFileURL(target).href;
  const path = relative(from, target).split(sep).join('/');
  return path.startsWith('.') ? path : `./${path}`;
}
