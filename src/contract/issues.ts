// zod issues as the one-line `path: reason` texts users read, and the "values seen" warnings.
import type { z } from 'zod';
import { SEEN_VALUES } from './fields.js';
import type { Method, Resource } from './resources.js';

export interface FieldProblem {
  /** Dotted path of the field in the item (`amount.currency`, `customFields[2].value`); '' for the item itself. */
  field: string;
  reason: string;
}

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * Who speaks: `client` (validate, before sending: an unknown column is not sent) or `server` (the
 * sandbox, answering a request that had the field: it can only say the field is not one of its own).
 */
export type Wording = 'client' | 'server';

function reasonOf(issue: z.core.$ZodIssue, wording: Wording): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return 'is required';
  if (issue.code === 'unrecognized_keys') {
    const keys = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    return wording === 'server' ? `${keys}: not ${issue.keys.length > 1 ? 'fields' : 'a field'} of this request` : `${keys} (not part of the API; not sent)`;
  }
  if (issue.code === 'invalid_type') return issue.message.replace(/^Invalid input: /, '');
  return issue.message;
}

export function toFieldProblems(issues: readonly z.core.$ZodIssue[], wording: Wording = 'client'): FieldProblem[] {
  return issues.map((issue) => ({ field: formatPath(issue.path), reason: reasonOf(issue, wording) }));
}

export function formatProblem(p: FieldProblem): string {
  return p.field ? `${p.field}: ${p.reason}` : p.reason;
}

function warnUnseen(value: unknown, list: readonly string[], field: string, out: FieldProblem[]) {
  if (typeof value === 'string' && !list.includes(value)) {
    out.push({ field, reason: `"${value}" is not among the values the API documents (${list.join(', ')}); sent as is` });
  }
}

/** The "values seen" enumerations, by resource and the item path of the field they warn about. */
const SEEN_AT: Partial<Record<Resource, Record<string, readonly string[]>>> = {
  activity: { type: SEEN_VALUES.activityType, 'source.name': SEEN_VALUES.activitySourceName },
  account: { type: SEEN_VALUES.accountType },
};

/**
 * The values a field of an item is documented with, when a value outside them draws a warning
 * (`customFields[].type` for a custom field's type); undefined for a field that has no such list.
 */
export function seenValues(resource: Resource, path: string): readonly string[] | undefined {
  return path === 'customFields[].type' ? SEEN_VALUES.customFieldType : SEEN_AT[resource]?.[path];
}

/** SEEN_AT's paths split once (`source.name` → `source`, `name`), not for every item checked. */
const SEEN_CHECKS = new Map(
  Object.entries(SEEN_AT).map(([resource, byPath]) => [
    resource,
    Object.entries(byPath).map(([path, list]) => ({ path, list, key: path.split('.')[0]!, sub: path.split('.')[1] })),
  ]),
);

/** Warnings for a valid item: values of "values seen" enumerations that the spec never showed. */
export function contractWarnings(resource: Resource, _method: Method, item: Record<string, unknown>): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const { path, list, key, sub } of SEEN_CHECKS.get(resource) ?? []) {
    const value = sub === undefined ? item[key] : (item[key] as Record<string, unknown> | undefined)?.[sub];
    warnUnseen(value, list, path, out);
  }
  const fields = item.customFields;
  if (Array.isArray(fields)) {
    fields.forEach((f, i) => {
      warnUnseen((f as { type?: unknown })?.type, SEEN_VALUES.customFieldType, `customFields[${i}].type`, out);
    });
  }
  return out;
}
