// The contract's item schemas through z.compile, once per resource and method. The same schema with
// a generated fast path, several times quicker for the valid items nearly every row is; an invalid item falls
// back to zod's own parser, so issues and messages stay exactly zod's (the schemas stay the contract).
import { z } from 'zod';
import { itemSchema } from '../contract/items.js';
import type { Method, Resource } from '../contract/resources.js';

const compiled = new Map<string, z.ZodType>();

export function compiledItemSchema(resource: Resource, method: Method): z.ZodType {
  const key = `${resource} ${method}`;
  let schema = compiled.get(key);
  if (!schema) compiled.set(key, (schema = z.compile(itemSchema(resource, method))));
  return schema;
}
