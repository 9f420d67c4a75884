// The push's signals, driven through its own listeners (emitting a real SIGTERM would reach the test
// runner's): the caller's end (bin/batch-sync.js) counts as a first signal, never as a second.
import { afterEach, expect, test } from 'vitest';
import { type InterruptSignals, interruptSignals } from '../../src/commands/signals.js';

let signals: InterruptSignals | undefined;
afterEach(() => signals?.dispose());

function start(): { said: string[]; sigterm: (name: string) => void; callerEnded: (pid: number) => void } {
  const before = new Set([...process.listeners('SIGTERM'), ...process.listeners('batch-sync:caller-ended' as 'SIGTERM')]);
  const said: string[] = [];
  signals = interruptSignals((t) => said.push(t));
  const added = (event: string) => process.listeners(event as 'SIGTERM').find((l) => !before.has(l))! as (...args: unknown[]) => void;
  return { said, sigterm: added('SIGTERM'), callerEnded: added('batch-sync:caller-ended') };
}

test('the caller ending stops a push as a first signal', () => {
  const { said, callerEnded } = start();
  callerEnded(4242);
  expect(signals!.stop.aborted).toBe(true);
  expect(signals!.cancel.aborted).toBe(false);
  expect(said).toEqual([
    'the process that started batch-sync (pid 4242) has ended: taking no new batches; waiting up to 10 s for those in flight (again to cancel them)',
  ]);
});

test('after a SIGTERM, the caller ending does not cancel the batches in flight; a second SIGTERM does', () => {
  const { said, sigterm, callerEnded } = start();
  sigterm('SIGTERM');
  callerEnded(4242);
  expect(signals!.cancel.aborted).toBe(false);
  sigterm('SIGTERM');
  expect(signals!.cancel.aborted).toBe(true);
  expect(said).toHaveLength(2);
  expect(said[1]).toBe('SIGTERM: cancelling the batches in flight');
});
