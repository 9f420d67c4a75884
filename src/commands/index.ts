// Every command of the CLI, in the order `--help` lists them.
import type { Command } from 'commander';
import type { Output } from '../report/output.js';
import { registerCompletion } from './completion.js';
import { registerHistory } from './history.js';
import { registerInit } from './init.js';
import { registerInspect } from './inspect.js';
import { registerPush } from './push.js';
import { registerReport } from './report.js';
import { registerSandbox } from './sandbox.js';
import { registerSchema } from './schema.js';
import { registerValidate } from './validate.js';
import type { SetExit } from './set-exit.js';

export type { SetExit } from './set-exit.js';

export function registerCommands(program: Command, output: Output, setExit: SetExit): void {
  registerPush(program, output, setExit);
  registerValidate(program, output, setExit);
  registerInit(program, output, setExit);
  registerInspect(program, output, setExit);
  registerHistory(program, output, setExit);
  registerReport(program, output, setExit);
  registerSchema(program, output, setExit);
  registerSandbox(program, output, setExit);
  registerCompletion(program, output, setExit);
}
