// Running out of file descriptors while sending is not a network hiccup: every worker would hit it.
import { expect, test } from 'vitest';
import { classifyError, mayHaveApplied } from '../../src/send/classify-error.js';

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

// Issue 36 row 6: which failed attempts may have been applied (their rows UNVERIFIED, not NOT_DELIVERED)
test.each([
  [{ code: 'HTTP_500', message: '', status: 500 }, true],
  [{ code: 'HTTP_502', message: '', status: 502 }, true],
  [{ code: 'HTTP_504', message: '', status: 504 }, true],
  [{ code: 'ECONNRESET', message: '' }, true],
  [{ code: 'UND_ERR_SOCKET', message: '' }, true],
  [{ code: 'UND_ERR_HEADERS_TIMEOUT', message: '' }, true],
  [{ code: 'ATTEMPT_TIMEOUT', message: '' }, true],
  [{ code: 'EPIPE', message: '' }, true],
  [{ code: 'UNKNOWN', message: '' }, true],
  [{ code: 'HTTP_503', message: '', status: 503 }, false],
  [{ code: 'HTTP_429', message: '', status: 429 }, false],
  [{ code: 'HTTP_408', message: '', status: 408 }, false],
  [{ code: 'HTTP_409', message: '', status: 409 }, false],
  [{ code: 'ECONNREFUSED', message: '' }, false],
  [{ code: 'EAI_AGAIN', message: '' }, false],
  [{ code: 'UND_ERR_CONNECT_TIMEOUT', message: '' }, false],
  [{ code: 'EHOSTUNREACH', message: '' }, false],
  [{ code: 'PROXY_TUNNEL', message: '', status: 502 }, false],
])('%o may have been applied: %s', (failure, applied) => {
  expect(mayHaveApplied(failure)).toBe(applied);
});
