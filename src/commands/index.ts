// Every command of the CLI, in the order `--help` lists them.
import type { Command } from 'commander';
import type { Output } from '../report/output.js';
import { registerSchema } from './schema.js';

/** Commands report their exit code through `setExit`; the highest wins. */
export type SetExit = (code: number) => void;

export function registerCommands(program: Command, output: Output, setExit: SetExit): void {
  registerSchema(program, output, setExit);
}
