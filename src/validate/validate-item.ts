// Local validation of one mapped item against the contract: the same zod schema the sandbox uses.
import { contractWarnings, toFieldProblems, type FieldProblem } from '../contract/issues.js';
import { itemSchema } from '../contract/items.js';
import type { Method, Resource } from '../contract/resources.js';
import { compiledItemSchema } from './compiled-schema.js';

type ItemValidation = { ok: true; item: Record<string, unknown>; warnings: FieldProblem[] } | { ok: false; problems: FieldProblem[] };

export type ItemValidator = (item: unknown) => ItemValidation;

/**
 * The function that checks each item. `compiled`: through z.compile's generated parser (the fast
 * engines; compiled once per resource and method), else through the schema itself (the simple engine).
 */
export function createItemValidator(resource: Resource, method: Method, compiled = true): ItemValidator {
  const schema = compiled ? compiledItemSchema(resource, method) : itemSchema(resource, method);
  return (item) => {
    const result = schema.safeParse(item);
    if (!result.success) return { ok: false, problems: toFieldProblems(result.error.issues) };
    const valid = result.data as Record<string, unknown>;
    return { ok: true, item: valid, warnings: contractWarnings(resource, method, valid) };
  };
}
