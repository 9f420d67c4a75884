// What `init` reads of each export before proposing anything: the header and a sample of rows (a
// JSON or NDJSON file's items flattened to dotted paths, `Owner.Email`, `attributes.referenceId`),
// and each file's kind, from FILE:KIND, --resource or CRM vocabulary. Files whose kind stays unclear
// are named all together in one message, each with its best guess and the FILE:KIND that confirms it.
// Customer records (contacts, people, leads: the API has no kind for them) and the files given as
// FILE:skip are left out of the plan, each said in one line.
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { parseResource, RESOURCE_NAMES_HELP, RESOURCES, type Resource } from '../contract/resources.js';
import { itemSchema } from '../contract/items.js';
import { isFileOnDisk, refuseTwoReadings } from '../config/pair-profiles.js';
import { InputError, UsageError } from '../errors.js';
import { ownersPointAt } from '../map/propose/customers.js';
import { guessResource } from '../map/propose/guess-resource.js';
import type { Proposal } from '../map/propose.js';
import { flattenItem } from '../map/records.js';
import { MIXED_ENCODING, namesGoAt, sampleSource } from '../read/index.js';
import { BACKSLASH_ESCAPED } from '../read/csv/row-builder.js';
import { plural } from '../report/plural.js';
import { isMysqlNull, MYSQL_NULL } from '../rows/mysql-null.js';
import type { ReaderOptions, SourceRecord, SourceWarning } from '../read/types.js';

export interface Proposed {
  file: string;
  out: string;
  resource: Resource;
  /** How the kind was decided, when init decided it. */
  guessed?: string;
  proposal: Proposal;
  rows: Record<string, string>[];
  header: readonly string[];
  complete: boolean;
  /** `line 4` (a sheet's `row 4`): the header row the sample was read with. */
  headerAt?: string;
  /** The reader's warnings about the file (title rows passed over, unnamed columns…). */
  warnings: SourceWarning[];
  /** Fields whose value is asked elsewhere (the owner, in owner.csv): init's check does not count them. */
  asked?: string[];
}

export interface Sampled {
  file: string;
  resource?: Resource;
  /** How the kind was decided, when init decided it. */
  guessed?: string;
  header: string[];
  rows: Record<string, string>[];
  /** False when the sample is not the whole file. */
  complete: boolean;
  /** What the profile's `reader` keeps of how the file was read. */
  reader: { delimiter?: string; encoding?: string; headerRow?: number; escape?: string; null?: string; sheet?: string; root?: string };
  /** `line 4` (a sheet's `row 4`): the header row the sample was read with. */
  headerAt?: string;
  /** The reader's warnings about the file (title rows passed over, unnamed columns…). */
  warnings: SourceWarning[];
  /** What init decided about reading the file (`reader.null`), for its `check:` lines. */
  notes?: string[];
}

/** The columns of the sample holding MySQL's `\N` as a whole cell, when rows/mysql-null.ts' rule says it is the file's NULL. */
function mysqlNullColumns(header: readonly string[], rows: readonly Record<string, string>[]): string[] | undefined {
  let cells = 0;
  const columns = header.filter((h) => {
    const n = rows.filter((r) => r[h] === MYSQL_NULL).length;
    cells += n;
    return n > 0;
  });
  return isMysqlNull(columns.length, cells, header.length * rows.length) ? columns : undefined;
}

/** A MySQL-style export (`\"` inside quotes) sampled with the default escape: its rows with such quotes unreadable. */
const backslashEscaped = (records: readonly SourceRecord[]) => records.some((r) => r.kind === 'unreadable' && r.reason.startsWith(BACKSLASH_ESCAPED));
const ESCAPE_NOTE = 'reader.escape: "\\\\": the sample escapes quotes with a backslash (\\"), as MySQL exports do; read so, those rows are readable';

export async function sampleFor(
  target: { file: string; resource?: Resource; guessed?: string },
  size: number,
  options: ReaderOptions | undefined,
): Promise<Sampled> {
  let sample = await sampleSource(target.file, size, options); // InputError (exit 2) when it cannot be read
  let notes: string[] | undefined;
  if (sample.format === 'csv' && options?.escape === undefined && backslashEscaped(sample.records)) {
    sample = await sampleSource(target.file, size, { ...options, escape: '\\' });
    notes = [ESCAPE_NOTE];
  }
  const { detected, format } = sample;
  const escapeChar = notes ? '\\' : options?.escape;
  if (sample.header) {
    const rows = sample.records.flatMap((r) => (r.kind === 'row' ? [r.row] : []));
    // a header that leaves no data rows would make a profile of placeholders: say where the header looks to be
    const choice = sample.headerChoice;
    if (choice?.noRowFits && rows.length === 0) {
      throw new InputError(`${target.file}:${choice.line}: ${choice.noRowFits}`, {
        suggestion: choice.lookalike === undefined ? undefined : `batch-sync init ${target.file} --header-row ${choice.lookalike}`,
      });
    }
    // a data row taken as the header would make a profile of its values: the file needs a header row
    if (choice?.headerless) {
      throw new InputError(
        `${target.file}:${choice.line}: the file has no header row (${choice.headerless}): add a ${choice.unit} of column names ${namesGoAt(choice)} (a profile names columns by name, not by position)`,
        {
          suggestion: `if ${choice.unit} ${choice.line} is the header: batch-sync init ${target.file} --header-row ${choice.line}`,
        },
      );
    }
    const headerAt = choice && `${choice.unit} ${choice.line}`;
    // a workbook has no delimiter or encoding to keep; the sheet it was read from instead
    if (format === 'xlsx') {
      const reader = { headerRow: detected.headerRow, sheet: detected.sheet };
      return { ...target, header: [...sample.header], rows, complete: sample.complete, reader, headerAt, warnings: sample.warnings };
    }
    // a file of UTF-8 and windows-1252 lines (in its first 64 KiB, or in what the sample read) keeps no
    // encoding: one would read every line one way, detection reads each in its own
    const mixed = detected.encoding === MIXED_ENCODING || sample.warnings.some((w) => w.mixedEncodings);
    const encoding = mixed ? undefined : detected.encoding;
    const reader = { delimiter: detected.delimiter, encoding, headerRow: detected.headerRow, escape: escapeChar, null: options?.null };
    const nulls = options?.null === undefined ? mysqlNullColumns(sample.header, rows) : undefined;
    if (!nulls) return { ...target, header: [...sample.header], rows, complete: sample.complete, reader, headerAt, warnings: sample.warnings, notes };
    // read as the profile will read it: those cells empty
    const read = rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === MYSQL_NULL ? '' : v])));
    const note = `reader.null: "${MYSQL_NULL}" is MySQL's NULL in ${plural(nulls.length, 'column')}: those cells are read as empty`;
    return {
      ...target,
      header: [...sample.header],
      rows: read,
      complete: sample.complete,
      reader: { ...reader, null: MYSQL_NULL },
      headerAt,
      warnings: sample.warnings,
      notes: [...(notes ?? []), note],
    };
  }
  const items = sample.records.flatMap((r) => (r.kind === 'item' ? [r.item] : []));
  if (items.length > 0 && RESOURCES.some((r) => items.every((item) => itemSchema(r, 'post').safeParse(item).success))) {
    throw new UsageError(`${target.file} holds items in the API's shape: they need no profile`, {
      suggestion: `check them with: batch-sync validate ${target.file} --resource <kind>`,
    });
  }
  const rows = items.map((item) => flattenItem(item) as Record<string, string>);
  const header = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return { ...target, header, rows, complete: sample.complete, reader: { encoding: detected.encoding, root: detected.root }, warnings: sample.warnings };
}

/** A command-line file: `deals.csv`, `misc.csv:account`, or `products.csv:skip` (left out of the plan). */
export interface Target {
  file: string;
  resource?: Resource;
  skip?: boolean;
}

/** `file.csv:deal` → the file and its kind, `file.csv:skip` → left out; the kind from --resource, the file name, or (later) its header. */
export function targetOf(arg: string, flag: Resource | undefined): Target {
  const at = arg.lastIndexOf(':');
  const word = at > 0 ? arg.slice(at + 1) : '';
  const named = at > 0 ? parseResource(word) : undefined;
  if ((named || word === 'skip') && isFileOnDisk(arg)) refuseTwoReadings(arg, isFileOnDisk, true);
  if ((named || word === 'skip') && !existsSync(arg)) return named ? { file: arg.slice(0, at), resource: named } : { file: arg.slice(0, at), skip: true };
  if (flag) return { file: arg, resource: flag };
  return { file: arg };
}

/** A file init leaves out of the plan, and the line that says why. */
export interface LeftOut {
  file: string;
  line: string;
  /** Customer records (else FILE:skip). */
  customers: boolean;
}

/**
 * Each file's kind decided: the files to map, and those left out (customer records, FILE:skip); or
 * one UsageError naming every file whose kind stays unclear.
 */
export function decideKinds(files: readonly Sampled[], skipped: readonly Target[] = []): { files: (Sampled & { resource: Resource })[]; leftOut: LeftOut[] } {
  const unclear: { file: string; reason: string; best?: Resource }[] = [];
  const customers: { f: Sampled; line: string }[] = [];
  for (const f of files) {
    if (f.resource) continue;
    const g = guessResource(f.header, f.file, f.rows);
    if (g.resource) {
      f.resource = g.resource;
      f.guessed = g.reason;
    } else if (g.customers) customers.push({ f, line: g.customers });
    // the command to paste names a kind only where the guess covers half of its required fields or more
    else unclear.push({ file: f.file, reason: g.reason, best: (g.scores[0]?.required ?? 0) >= 0.5 ? g.scores[0]!.resource : undefined });
  }
  const leftOut: LeftOut[] = skipped.map((t) => ({ file: t.file, line: `${t.file}: left out (${basename(t.file)}:skip)`, customers: false }));
  const deals = files.filter((f) => f.resource === 'deal');
  for (const { f, line } of customers) {
    // people the deals' owner column points at are the sellers, whatever the file is called
    const owners = ownersPointAt(deals, f);
    if (owners) {
      f.resource = 'sales-profile';
      f.guessed = `the owners in "${owners.owner}" of ${basename(owners.file)} are its "${owners.column}" (${owners.found} of ${owners.of})`;
    } else leftOut.push({ file: f.file, line: `${f.file}: ${line}: the API has no kind for them; left out`, customers: true });
  }
  if (unclear.length) throw unclearKinds(files, unclear);
  const kept = files.filter((f): f is Sampled & { resource: Resource } => f.resource !== undefined);
  if (!kept.length) {
    throw new UsageError(`nothing left to map: ${leftOut.map((l) => l.line).join('; ')}`, {
      suggestion: `bring a file in with FILE:KIND (${RESOURCE_NAMES_HELP}), e.g. batch-sync init ${leftOut[0]?.file ?? '<file>'}:<kind>`,
    });
  }
  return { files: kept, leftOut };
}

/** What init says of the files it left out, and how to bring one in. */
export function leftOutLines(leftOut: readonly LeftOut[]): string[] {
  if (!leftOut.length) return [];
  const customers = leftOut.find((l) => l.customers);
  const how = 'bring one in with FILE:KIND';
  return [
    ...leftOut.map((l) => l.line),
    customers ? `${how}: ${basename(customers.file)}:sales-profile if they are your sellers` : `${how} in place of FILE:skip`,
  ];
}

function unclearKinds(files: readonly Sampled[], unclear: readonly { file: string; reason: string; best?: Resource }[]): UsageError {
  const what = unclear.map((u) => `${u.file} (${u.reason})`);
  const message =
    unclear.length === 1
      ? `cannot tell which resource ${unclear[0]!.file} holds (${unclear[0]!.reason})`
      : `cannot tell which resource each of ${unclear.length} files holds: ${what.join('; ')}`;
  const confirm = files.map((f) => {
    const u = unclear.find((x) => x.file === f.file);
    return u ? `${f.file}:${u.best ?? '<kind>'}` : f.file;
  });
  return new UsageError(message, {
    suggestion: `confirm each with FILE:KIND (${RESOURCE_NAMES_HELP}), or leave one out with FILE:skip: batch-sync init ${confirm.join(' ')}`,
  });
}
