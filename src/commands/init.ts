// `batch-sync init`: (being written)
import type { Command } from 'commander';
import type { Output } from '../report/output.js';
import type { SetExit } from './index.js';

export function registerInit(program: Command, _output: Output, _setExit: SetExit): void {
  program.command('init').description('(not yet available)');
}
