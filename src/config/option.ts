// What one option is, once: its flag, environment variable, place in the plan, zod schema (whose
// description is the help line) and default. A command's table of these gives commander its
// options, the plan its schema, and the run its resolved values; nothing copies them by hand.
import { z } from 'zod';
import { UsageError } from '../errors.js';

export interface OptionRow<T = unknown> {
  /** commander's spelling: `--batch-size <n>`, `--no-hold-dependents`, `-q, --quiet`; none: plan only. */
  flag?: string;
  /** What a value must be; `.describe()` is the help line. Messages name no source: one is put before them. */
  schema: z.ZodType<T>;
  /** Read when the flag is not given; an empty value counts as unset. */
  env?: string;
  /** Where the plan holds it (`defaults.batchSize`); several: the first present wins (old names last). */
  plan?: string | readonly string[];
  default?: T;
  /** The flag may be given again; each value is kept, in order. */
  repeatable?: boolean;
  /** Shown in help as commander's `default:`. */
  helpDefault?: string;
  /** Options that cannot be given with this one, and what to say when they are. */
  excludes?: { options: readonly string[]; message: string };
  /** An option this one only goes with, and what to say when it is missing. */
  needs?: { option: string; message: string };
  /** The task `--help` lists it under. */
  group?: HelpGroup;
}

/** The tasks `--help` groups options by, in its order, with their headings. */
export const HELP_GROUPS = { input: 'Input', mapping: 'Mapping', sending: 'Sending', reports: 'Reports', nightly: 'Nightly runs', ci: 'CI' } as const;
export type HelpGroup = keyof typeof HELP_GROUPS;

/** Every row of a table under a task, unless the row names its own. */
export function inGroup<T extends OptionTable>(group: HelpGroup, table: T): T {
  return Object.fromEntries(Object.entries(table).map(([key, row]) => [key, { group, ...row }])) as T;
}

// biome-ignore lint/suspicious/noExplicitAny: a table holds rows of every value type; each row keeps its own
export type OptionTable = Record<string, OptionRow<any>>;

/** The values of a table once resolved: an option with a default always has a value. */
export type OptionValues<T extends OptionTable> = {
  [K in keyof T]: T[K] extends { default: unknown } ? z.output<T[K]['schema']> : z.output<T[K]['schema']> | undefined;
};

/** The options given on the command line, by key: text as typed (a list for a repeatable one), or a switch. */
export type GivenFlags = Partial<Record<string, string | boolean | string[]>>;

/** `--batch-size` for `--batch-size <n>`, `--hold-dependents` for `--no-hold-dependents`. */
export function longFlag(row: OptionRow): string {
  const long = row.flag?.split(/[ ,]+/).find((part) => part.startsWith('--')) ?? '';
  return long.replace(/^--no-/, '--');
}

function baseType(schema: z.ZodType): string {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType } };
  while (s.def.innerType && (s.def.type === 'optional' || s.def.type === 'default' || s.def.type === 'nullable')) s = s.def.innerType as typeof s;
  return s.def.type;
}

/** The choices help lists for an enum option. */
export function choicesOf(row: OptionRow): string[] | undefined {
  let s = row.schema as z.ZodType & { def: { type: string; innerType?: z.ZodType }; options?: string[] };
  while (s.def.innerType) s = s.def.innerType as typeof s;
  return s.def.type === 'enum' ? s.options : undefined;
}

/** Text from a flag or the environment, as the schema's type: a number only when it reads as one. */
function fromText(schema: z.ZodType, value: unknown): unknown {
  if (typeof value !== 'string' || baseType(schema) !== 'number') return value;
  return value.trim() === '' ? Number.NaN : Number(value);
}

function planValue(plan: object | undefined, path: string): unknown {
  let at: unknown = plan;
  for (const key of path.split('.')) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

const planPaths = (row: OptionRow) => (row.plan === undefined ? [] : typeof row.plan === 'string' ? [row.plan] : row.plan);

/** Each option from the first that has it: the flag, the environment, the plan, the default. */
export function resolveOptions<T extends OptionTable>(table: T, given: GivenFlags, env: Record<string, string | undefined>, plan?: object): OptionValues<T> {
  const values: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(table)) {
    let value: unknown;
    let source: string | undefined;
    if (given[key] !== undefined) [value, source] = [given[key], longFlag(row)];
    else if (row.env !== undefined && env[row.env]) [value, source] = [env[row.env], row.env];
    else {
      const path = planPaths(row).find((p) => planValue(plan, p) !== undefined);
      if (path !== undefined) [value, source] = [planValue(plan, path), `the plan's ${path}:`];
    }
    if (source === undefined) {
      values[key] = row.default;
      continue;
    }
    const parsed = row.schema.safeParse(fromText(row.schema, value));
    if (!parsed.success) throw new UsageError(`${source} ${parsed.error.issues[0]!.message}`);
    values[key] = parsed.data;
  }
  return values as OptionValues<T>;
}

/** Refuses what the table says cannot go together, in the table's words. */
export function checkCombinations(table: OptionTable, given: GivenFlags): void {
  for (const [key, row] of Object.entries(table)) {
    if (given[key] === undefined) continue;
    if (row.excludes?.options.some((other) => given[other] !== undefined)) throw new UsageError(row.excludes.message);
    if (row.needs && given[row.needs.option] === undefined) throw new UsageError(row.needs.message);
  }
}

/** The plan's fields for a table's options, nested by their plan paths, each optional; `about` describes the groups. */
export function planShape(table: OptionTable, about: Record<string, string> = {}): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType | Record<string, z.ZodType>> = {};
  for (const row of Object.values(table)) {
    for (const path of planPaths(row)) {
      const [head, field] = path.split('.') as [string, string | undefined];
      if (field === undefined) shape[head] = row.schema.optional();
      else ((shape[head] ??= {}) as Record<string, z.ZodType>)[field] = row.schema.optional();
    }
  }
  const group = (key: string, fields: Record<string, z.ZodType>) => {
    const object = z.strictObject(fields).optional();
    return about[key] === undefined ? object : object.describe(about[key]);
  };
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v instanceof z.ZodType ? v : group(k, v)]));
}
