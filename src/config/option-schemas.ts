// The zod shapes option rows are made of (config/options.ts, send-options.ts): each says its error
// in the words a user reads after the flag's name.
import { z } from 'zod';

export const int = (min: number, max: number) =>
  z.number({ error: 'takes a whole number' }).int('takes a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`);
export const text = (help: string) => z.string().describe(help);
export const onOff = (help: string) => z.boolean().describe(help);

export const wholeAtLeast = (min: number, what: string) =>
  z
    .number({ error: `takes ${what}` })
    .int(`takes ${what}`)
    .min(min, `takes ${what}`);
