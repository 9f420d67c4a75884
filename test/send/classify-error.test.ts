// Running out of file descriptors while sending is not a network hiccup: every worker would hit it.
import { expect, test } from 'vitest';
import { classifyError } from '../../src/send/classify-error.js';

test('EMFILE opening a connection stops the run (exit 3) with one clear line, not a retry', () => {
  const err = Object.assign(new Error('connect EMFILE 127.0.0.1:443 - Local (undefined:undefined)'), { code: 'EMFILE' });
  const d = classifyError(err, 'https://api.example.test');
  expect(d.action).toBe('abort');
  if (d.action !== 'abort') return;
  expect(d.error.exitCode).toBe(3);
  expect(d.error.code).toBe('FD_LIMIT');
  expect(d.error.message).toMatch(
    /^too many open files \(EMFILE\) while sending to https:\/\/api\.example\.test: the (limit is \d+ open files|open-file limit is too low) \(ulimit -n\); raise it, e\.g\. `ulimit -n 1024`, and run again$/,
  );
  expect(d.error.message).not.toContain('\n');
});
