import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, EXIT, UsageError } from '../../src/errors.js';
import { redact } from '../../src/redact.js';
import { readApiKey } from '../../src/config/api-key.js';

function keyFile(content: string, mode: number): string {
  const path = join(mkdtempSync(join(tmpdir(), 'bs-key-')), 'key');
  writeFileSync(path, content);
  chmodSync(path, mode);
  return path;
}

describe.skipIf(process.platform === 'win32')('readApiKey', () => {
  it('reads BATCH_SYNC_API_KEY, trimmed, and registers it as a secret', () => {
    expect(readApiKey({ env: { BATCH_SYNC_API_KEY: '  env-key-1234\n' } })).toEqual({ apiKey: 'env-key-1234', source: 'env' });
    expect(redact('x env-key-1234 y')).toBe('x *** y');
  });

  it('reads a mode-600 file, trimmed; the file wins over the environment', () => {
    const path = keyFile('file-key-5678\n', 0o600);
    expect(readApiKey({ env: { BATCH_SYNC_API_KEY: 'env-key' }, apiKeyFile: path })).toEqual({ apiKey: 'file-key-5678', source: 'file' });
    expect(readApiKey({ apiKeyFile: keyFile('k-400-mode', 0o400) }).apiKey).toBe('k-400-mode');
  });

  it.each([0o644, 0o640, 0o604, 0o660])('refuses a file with mode %o, suggesting chmod 600', (mode) => {
    const path = keyFile('secret-key-9999', mode);
    let err: unknown;
    try {
      readApiKey({ apiKeyFile: path });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(EXIT.usage);
    expect((err as ConfigError).message).toContain(`mode ${mode.toString(8)}`);
    expect((err as ConfigError).suggestion).toBe(`chmod 600 ${path}`);
    expect((err as ConfigError).message).not.toContain('secret-key-9999');
  });

  it('an empty, missing or multi-line file is a ConfigError that does not print its content', () => {
    expect(() => readApiKey({ apiKeyFile: keyFile('  \n', 0o600) })).toThrowError(/is empty/);
    expect(() => readApiKey({ apiKeyFile: '/nonexistent/key' })).toThrowError(/cannot read the API key file/);
    const multi = () => readApiKey({ apiKeyFile: keyFile('line-one-key\nline-two-key', 0o600) });
    expect(multi).toThrowError(/more than one line/);
    expect(multi).not.toThrowError(/line-one-key/);
  });

  it('no key at all → UsageError explaining both ways', () => {
    let err: unknown;
    try {
      readApiKey({ env: { BATCH_SYNC_API_KEY: '   ' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).suggestion).toMatch(/BATCH_SYNC_API_KEY/);
    expect((err as UsageError).suggestion).toMatch(/--api-key-file/);
  });
});
