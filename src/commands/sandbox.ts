// `batch-sync sandbox`: (being written)
import type { Command } from 'commander';
import type { Output } from '../report/output.js';
import type { SetExit } from './index.js';

export function registerSandbox(program: Command, _output: Output, _setExit: SetExit): void {
  program.command('sandbox').description('(not yet available)');
}
