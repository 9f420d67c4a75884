// JSON Schema of an item, generated from the zod schema (descriptions carry the spec's notes).
import { z } from 'zod';
import { itemSchema } from './items.js';
import type { Method, Resource } from './resources.js';

export function itemJsonSchema(resource: Resource, method: Method): Record<string, unknown> {
  const schema = z.toJSONSchema(itemSchema(resource, method), { io: 'input', unrepresentable: 'any' });
  return { title: `${resource} item (${method.toUpperCase()})`, ...schema };
}
