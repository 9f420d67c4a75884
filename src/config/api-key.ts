// Where a push sends, with which key: the base URL as the settings resolved it, and the API key
// from the environment or a private file, never a command-line flag (a flag would show in `ps` and
// in shell history).
import { readFileSync, statSync } from 'node:fs';
import { ConfigError, UsageError } from '../errors.js';
import { addSecret } from '../redact.js';
import { API_KEY_ENV, BASE_URL_ENV } from './options.js';

export { API_KEY_ENV } from './options.js';

export interface ApiKey {
  apiKey: string;
  /** For messages: "the key from --api-key-file ./key was refused". */
  source: 'env' | 'file';
}

export interface ReadApiKeyOptions {
  env?: Record<string, string | undefined>;
  /** --api-key-file. Given explicitly, it wins over the environment. */
  apiKeyFile?: string;
  /** Injectable for tests on systems without POSIX modes; defaults to process.platform. */
  platform?: NodeJS.Platform;
}

export function readApiKey(opts: ReadApiKeyOptions = {}): ApiKey {
  const env = opts.env ?? process.env;
  if (opts.apiKeyFile) return { apiKey: fromFile(opts.apiKeyFile, opts.platform ?? process.platform), source: 'file' };
  const fromEnv = env[API_KEY_ENV]?.trim();
  if (fromEnv) {
    checkShape(fromEnv, API_KEY_ENV);
    addSecret(fromEnv);
    return { apiKey: fromEnv, source: 'env' };
  }
  throw new UsageError('no API key: batch-sync needs the key of the batch integration API to send', {
    suggestion: `set ${API_KEY_ENV}=<key> in the environment, or put the key alone in a file (chmod 600) and pass --api-key-file <file>`,
  });
}

/** The API a push sends to and its key, read only once a push needs them (never for validate). */
export function apiTarget(settings: { baseUrl?: string; apiKeyFile?: string }, env?: Record<string, string | undefined>): { baseUrl: string } & ApiKey {
  const { baseUrl } = settings;
  if (!baseUrl)
    throw new UsageError('no base URL: where is the API?', { suggestion: `pass --base-url, set ${BASE_URL_ENV}, put baseUrl in the plan, or try --sandbox` });
  return { baseUrl, ...readApiKey({ apiKeyFile: settings.apiKeyFile, env }) };
}

function fromFile(path: string, platform: NodeJS.Platform): string {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (err) {
    throw new ConfigError(`cannot read the API key file ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, {
      suggestion: 'check the path given to --api-key-file',
    });
  }
  // Windows has no such bits; ACLs there are the user's business
  if (platform !== 'win32' && (mode & 0o077) !== 0) {
    throw new ConfigError(`the API key file ${path} can be read by other users (mode ${(mode & 0o777).toString(8).padStart(3, '0')}); refusing to use it`, {
      suggestion: `chmod 600 ${path}`,
    });
  }
  let key: string;
  try {
    key = readFileSync(path, 'utf8').trim();
  } catch (err) {
    throw new ConfigError(`cannot read the API key file ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (!key) throw new ConfigError(`the API key file ${path} is empty`, { suggestion: 'put the key on the first line' });
  checkShape(key, `the API key file ${path}`);
  addSecret(key);
  return key;
}

/**
 * The key travels in an HTTP header: printable ASCII only. A control character (NUL, DEL, a tab), a
 * second line or a non-ASCII character (an emoji, an accented letter) is a copy-paste mistake that
 * undici would only refuse at the first request; said here, before anything is sent, without the key.
 */
function checkShape(key: string, where: string): void {
  if (/[\r\n]/.test(key)) {
    throw new ConfigError(`${where} holds more than one line; the API key is a single line`, {
      suggestion: 'keep only the key in it',
    });
  }
  const bad = /[^\x20-\x7e]/u.exec(key);
  if (bad) {
    const code = bad[0].codePointAt(0)!;
    const what = code < 0x20 || (code >= 0x7f && code <= 0x9f) ? 'a control character' : 'a non-ASCII character';
    throw new ConfigError(
      `${where} holds ${what} (U+${code.toString(16).toUpperCase().padStart(4, '0')}) at position ${[...key.slice(0, bad.index)].length + 1}; an API key is printable ASCII`,
      { suggestion: 'copy the key again from where it was issued, without surrounding text' },
    );
  }
}
