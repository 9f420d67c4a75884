// The batch envelope every operation takes, and the response every operation returns.
import { z } from 'zod';
import { nonBlank } from './fields.js';

/** The spec shows all three in every request; we require them (sent always, checked by the sandbox). */
export const batchEnvelope = z
  .strictObject({
    batchId: nonBlank('Identifier of the batch, chosen by the caller.'),
    source: nonBlank('Name of the sending system.'),
    items: z.array(z.unknown()).describe('Records of the resource kind of the path.'),
  })
  .describe('Batch envelope.');

const dataError = z.object({ message: z.string(), detail: z.string() });
export type DataError = z.infer<typeof dataError>;

export const batchResponse = z.object({
  data: z.object({
    code: z.number().int().describe('A numeric code (200 and 201 mean the batch was processed; README, "Reading the API\'s answers").'),
    // read by the answers profile: a count of accepted items for some APIs, a fixed value for others
    success: z.unknown().describe('A numeric count or value (the documentation shows 100 for a one-item batch).'),
    error: z.array(z.unknown()).describe('Item-level problems: {message, detail}.'),
  }),
  status: z.string().describe('Value seen: SUCCESS.'),
});
export type BatchResponse = { data: { code: number; success: unknown; error: unknown[] }; status: string };
