// Reading a profile file: JSON syntax errors with line and column, zod issues as
// `profile deals.profile.json: fields.amount.value.format: expected one of ...`, and the
// placeholders `init` leaves for the user, all as ConfigError (exit 2).
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { formatPath } from '../contract/issues.js';
import { ConfigError } from '../errors.js';
import { checkProfileTargets } from './profile-targets.js';
import { profileSchema, type Profile } from './profile-schema.js';

/** What `init` writes where the user has to decide; a profile that still holds one is refused. */
export const FILL_IN = '<FILL IN';

function lineAndColumn(text: string, position: number): string {
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  return `line ${line}, column ${position - before.lastIndexOf('\n')}`;
}

function parseJson(text: string, origin: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    const pos = /position (\d+)/.exec(message);
    const where = pos ? ` at ${lineAndColumn(text, Number(pos[1]))}` : '';
    throw new ConfigError(`profile ${origin}: not valid JSON${where}: ${message.replace(/ in JSON at position \d+.*$/, '')}`, {
      suggestion: 'check for a missing comma or quote, or a trailing comma',
      cause: error,
    });
  }
}

function placeholders(value: unknown, path: (string | number)[], out: string[]) {
  if (typeof value === 'string' && value.startsWith(FILL_IN)) out.push(`${formatPath(path) || '(profile)'}: ${value} — left by init for you to decide`);
  else if (Array.isArray(value))
    value.forEach((v, i) => {
      placeholders(v, [...path, i], out);
    });
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) placeholders(v, [...path, k], out);
  // keys too: a placeholder column name is a placeholder
}

/**
 * JSON.parse makes `__proto__` an ordinary key, but the schema's records drop it without a word: a
 * field or a map entry of that name would silently vanish. Refused, with its path.
 */
function protoKeys(value: unknown, path: (string | number)[], out: string[]) {
  if (Array.isArray(value))
    value.forEach((v, i) => {
      protoKeys(v, [...path, i], out);
    });
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__') out.push(`${formatPath([...path, k])}: "__proto__" cannot be used as a name here (it would be dropped); rename it`);
      else protoKeys(v, [...path, k], out);
    }
  }
}

function fail(origin: string, lines: string[], suggestion?: string): never {
  const [first, ...rest] = lines;
  throw new ConfigError(`profile ${origin}: ${first}${rest.map((l) => `\n  profile ${origin}: ${l}`).join('')}`, { suggestion });
}

/** Validates parsed JSON as a profile of the given origin (a file name, for messages). */
export function parseProfile(json: unknown, origin: string): Profile {
  const left: string[] = [];
  placeholders(json, [], left);
  if (left.length) fail(origin, left, 'edit the profile: give a column, a "const" value or a format in place of each <FILL IN ...>');
  const proto: string[] = [];
  protoKeys(json, [], proto);
  if (proto.length) fail(origin, proto);
  const result = profileSchema.safeParse(json);
  if (!result.success) {
    fail(
      origin,
      result.error.issues.map((i) => `${formatPath(i.path) || '(profile)'}: ${i.message.replace(/^Invalid input: /, '')}`),
    );
  }
  const profile: Profile = { ...result.data, origin };
  const problems = checkProfileTargets(profile);
  if (problems.length) fail(origin, problems);
  return profile;
}

export async function loadProfile(path: string): Promise<Profile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read profile ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
      suggestion: 'check the path, or create one with: batch-sync init <file> --resource <kind>',
      cause: error,
    });
  }
  // a lookup's file is relative to the profile's folder
  return { ...parseProfile(parseJson(text, basename(path)), basename(path)), dir: dirname(resolve(path)) };
}
