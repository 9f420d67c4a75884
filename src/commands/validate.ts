// `batch-sync validate`: (being written)
import type { Command } from 'commander';
import type { Output } from '../report/output.js';
import type { SetExit } from './index.js';

export function registerValidate(program: Command, _output: Output, _setExit: SetExit): void {
  program.command('validate').description('(not yet available)');
}
