// `batch-sync push`: (being written)
import type { Command } from 'commander';
import type { Output } from '../report/output.js';
import type { SetExit } from './index.js';

export function registerPush(program: Command, _output: Output, _setExit: SetExit): void {
  program.command('push').description('(not yet available)');
}
