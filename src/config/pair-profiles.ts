// Which mapping profile maps which file named on the command line. A file gets, in this order: the
// profile paired with it as `FILE:PROFILE`; the one --profile; for `FILE:KIND`, the
// `<name>.<kind>.profile.json` beside it; the `<name>.profile.json` beside it (where `init` writes
// it); none (canonical columns). What could be read two ways is refused. A file paired with its kind
// as `FILE:KIND` (as `init` takes it) is read as that kind, whatever --resource says.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseResource, type Resource } from '../contract/resources.js';
import { UsageError } from '../errors.js';

export interface PairedFile {
  file: string;
  /** `FILE:KIND`: the kind the file is read as (a file may be read once per kind); wins over --resource. */
  kind?: Resource;
  profile?: string;
  /** The profile was found beside the file, not named. */
  beside?: boolean;
}

/** Where `init` writes a file's profile: `exports/deals.csv` → `exports/deals.profile.json` beside it. */
export function profileBeside(file: string): string {
  return join(dirname(file), `${basename(file).replace(/\.[^.]*$/, '')}.profile.json`);
}

/** The profile picked up beside a file named on the command line; a profile has none. */
export function siblingProfile(file: string): string | undefined {
  return /\.profile\.json$/i.test(basename(file)) ? undefined : profileBeside(file);
}

/** `exports/deals.csv` read as sales-profile → `exports/deals.sales-profile.profile.json`. */
const kindProfileBeside = (file: string, kind: Resource) => profileBeside(file).replace(/\.profile\.json$/, `.${kind}.profile.json`);

/**
 * `FILE:PROFILE` or `FILE:KIND` read as such: split at the last `:` whose right side ends in `.json`
 * (a profile) or is a resource's name as --resource takes it (a kind), and which is not a drive
 * letter's colon (`C:\…`: one letter at the start or right after the separating colon).
 */
function splitAtColon(arg: string): PairedFile | undefined {
  for (let i = arg.lastIndexOf(':'); i > 0; i = arg.lastIndexOf(':', i - 1)) {
    const file = arg.slice(0, i);
    const right = arg.slice(i + 1);
    const driveColon = /^[A-Za-z]$/.test(file.slice(-1)) && (i === 1 || arg[i - 2] === ':');
    if (driveColon || /^[A-Za-z]$/.test(file)) continue;
    if (/\.json$/i.test(right)) return { file, profile: right };
    const kind = parseResource(right);
    if (kind) return { file, kind };
  }
  return undefined;
}

/**
 * An argument that names an existing file is that file, colons and all, unless the pairing it also
 * reads as names existing files too (`accounts.csv:deal` beside `accounts.csv`): that is refused,
 * saying how to write each reading, rather than one taken without a word. `skip`: init's
 * `FILE:skip` is a pairing too.
 */
export function refuseTwoReadings(arg: string, isFile: (path: string) => boolean, skip = false): void {
  const at = arg.lastIndexOf(':');
  const pair = splitAtColon(arg) ?? (skip && at > 0 && arg.slice(at + 1) === 'skip' ? { file: arg.slice(0, at) } : undefined);
  if (pair === undefined || !isFile(pair.file) || (pair.profile !== undefined && !isFile(pair.profile))) return;
  const [reading, other] =
    pair.kind !== undefined
      ? [`${pair.file} read as ${pair.kind}`, `${arg}:${pair.kind} for the file of that name, or ${pair.file} --resource ${pair.kind} for ${pair.file}`]
      : pair.profile !== undefined
        ? [`${pair.file} with the profile ${pair.profile}`, `${arg}:KIND for the file of that name, or ${pair.file} --profile ${pair.profile} for ${pair.file}`]
        : [`${pair.file} left out`, `${arg}:KIND for the file of that name, or leave ${pair.file} off the command line`];
  throw new UsageError(`${JSON.stringify(arg)} names a file, and also ${reading}: write ${other}`);
}

/** `FILE:PROFILE`, `FILE:KIND`, or a file name as written (an existing file is that file: refuseTwoReadings). */
export function splitFileArgument(arg: string, isFile: (path: string) => boolean): PairedFile {
  if (isFile(arg)) {
    refuseTwoReadings(arg, isFile);
    return { file: arg };
  }
  return splitAtColon(arg) ?? { file: arg };
}

export const isFileOnDisk = (path: string) => existsSync(path) && statSync(path).isFile();

/**
 * Pairs the files named on the command line with profiles. Refused (exit 2): several different
 * --profile (which file gets which?), a --profile that no file takes, and one --profile for several
 * files when one of them has another profile beside it.
 */
export function pairProfiles(
  args: readonly string[],
  profiles: readonly string[],
  resolvePath: (p: string) => string = (p) => p,
  onDisk: (path: string) => boolean = isFileOnDisk,
): PairedFile[] {
  const isFile = (p: string) => onDisk(resolvePath(p));
  const paired = args.map((a) => splitFileArgument(a, isFile));
  const named = [...new Set(profiles)];
  const loose = paired.filter((p) => p.profile === undefined);
  if (named.length > 1) {
    const files = loose.length > 0 ? loose : paired;
    throw new UsageError(
      `--profile given ${named.length} times (${named.join(', ')}) for ${files.map((p) => p.file).join(', ')}: pair each file with its profile as FILE:PROFILE, e.g. ${files[0]?.file ?? 'deals.csv'}:${named[0]}`,
    );
  }
  const one = named[0];
  if (one !== undefined && loose.length === 0) {
    throw new UsageError(
      `--profile ${one} maps no file: every file is paired with its own profile (${paired.map((p) => `${p.file}:${p.profile}`).join(', ')})`,
    );
  }
  if (one !== undefined && loose.length > 1) {
    const other = loose
      .map((p) => ({ file: p.file, beside: siblingProfile(p.file) }))
      .find((p) => p.beside && isFile(p.beside) && resolvePath(p.beside) !== resolvePath(one));
    if (other) {
      throw new UsageError(
        `--profile ${one} would map ${loose.map((p) => p.file).join(', ')}, but ${other.file} has ${other.beside} beside it: pair each file with its profile as FILE:PROFILE`,
      );
    }
  }
  return paired.map((p) => {
    if (p.profile !== undefined) return p;
    if (one !== undefined) return { ...p, profile: one };
    const ofKind = p.kind === undefined ? undefined : kindProfileBeside(p.file, p.kind);
    if (ofKind !== undefined && isFile(ofKind)) return { ...p, profile: ofKind, beside: true };
    const beside = siblingProfile(p.file);
    return beside && isFile(beside) ? { ...p, profile: beside, beside: true } : p;
  });
}
