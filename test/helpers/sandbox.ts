// A sandbox on a random port and a tiny real-socket client for it: tests speak HTTP to the server
// exactly as push does, with the global fetch (no mocks anywhere).
import { request } from 'node:http';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type SandboxHandle, type SandboxOptions } from '../../src/sandbox/index.js';
import { type CliResult, startCli } from './cli.js';

export const KEY = 'test-key-123';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export async function sandbox(options: Partial<SandboxOptions> = {}): Promise<SandboxHandle> {
  return startSandbox({ port: 0, apiKey: KEY, ...options });
}

/** Sends a raw body (string) or an envelope (object) to an API path; returns status and parsed JSON. */
export async function call(sb: SandboxHandle, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${sb.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-api-key': KEY, ...headers },
    body: body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const PATHS: Record<string, string> = {
  deal: '/v2/integration/deals',
  activity: '/v2/integration/activities',
  account: '/v2/integration/account',
  'sales-profile': '/v2/integration/sales-profile',
};

let batchCounter = 0;

/** One batch of items to a resource; batchId generated unless given. */
export function send(sb: SandboxHandle, method: 'POST' | 'PATCH', resource: keyof typeof PATHS, items: unknown[], batchId = `b${++batchCounter}`) {
  return call(sb, method, PATHS[resource]!, { batchId, source: 'tests', items });
}

export const profile = (externalId: string) => ({
  externalId,
  email: `${externalId}@example.com`,
  profile: { firstName: externalId, lastName: 'Test' },
});

export const deal = (externalId: string, extra: Record<string, unknown> = {}) => ({
  externalId,
  title: `Deal ${externalId}`,
  ownerExternalId: 'ana',
  agentExternalId: 'bruno',
  isWon: false,
  amount: { value: '100.00', currency: 'USD' },
  ...extra,
});

/** A sandbox that already knows the sales profiles ana and bruno (owners of `deal()`). */
export async function sandboxWithProfiles(options: Partial<SandboxOptions> = {}): Promise<SandboxHandle> {
  const sb = await sandbox(options);
  const r = await send(sb, 'POST', 'sales-profile', [profile('ana'), profile('bruno')]);
  if (r.body?.data?.success !== 2) throw new Error(`could not seed profiles: ${JSON.stringify(r.body)}`);
  return sb;
}

/**
 * One sandbox for a test file: started before its tests (on a free port, with `apiKey`), closed
 * after them, and emptied before each test with `reset`. `ready` receives it and the environment
 * that points push at it.
 */
export function sandboxPerFile(
  apiKey: string,
  ready: (sandbox: SandboxHandle, env: Record<string, string>) => void,
  options: { reset?: boolean; answers?: SandboxOptions['answers'] } = {},
): void {
  let started: SandboxHandle | undefined;
  beforeAll(async () => {
    started = await startSandbox({ port: 0, apiKey, answers: options.answers });
    ready(started, { BATCH_SYNC_API_KEY: apiKey, BATCH_SYNC_BASE_URL: started.url });
  });
  afterAll(() => started?.close());
  if (options.reset) beforeEach(() => started?.reset());
}

/**
 * The two answer styles the end-to-end push tests run against (issue 21.5): the sandbox's own
 * `named` answers read as such, and the `documented` answers (no item named, success 100) read with
 * isolation, so that rows the tests expect accepted or rejected are pinned one by one.
 */
export const ANSWER_STYLES_UNDER_TEST = [
  { style: 'named' as const, args: ['--answers', 'named'] },
  { style: 'documented' as const, args: ['--isolate-unattributed'] },
];

/** Every record of a resource as GET /_sandbox/records/<resource> gives them: page after page, with the key. */
export async function allRecords(sb: SandboxHandle, resource: string, apiKey = KEY): Promise<unknown[]> {
  const records: unknown[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const res = await fetch(`${sb.url}/_sandbox/records/${resource}?limit=1000&offset=${offset}`, { headers: { 'x-api-key': apiKey } });
    if (res.status !== 200) throw new Error(`GET /_sandbox/records/${resource}: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as { records: unknown[]; nextOffset: number | null };
    records.push(...page.records);
    offset = page.nextOffset;
  }
  return records;
}

/**
 * `batch-sync sandbox ARGS` as a user starts it (the built CLI), on a free port with `apiKey`:
 * resolves once it printed its URL and key; `stop()` sends Ctrl+C and waits for its exit.
 */
export async function sandboxCli(apiKey: string, args: string[] = []): Promise<{ url: string; stop(): Promise<CliResult> }> {
  const { child, result } = startCli(['sandbox', '--port', '0', '--api-key', apiKey, '--quiet', ...args]);
  let out = '';
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`batch-sync sandbox printed no key within 20 s:\n${out}`)), 20_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const match = /^sandbox listening on (\S+)[\s\S]*^API key: /m.exec(out);
      if (match) {
        clearTimeout(timer);
        done(match[1]!);
      }
    });
    void result.then((r) => fail(new Error(`batch-sync sandbox exited ${r.code}:\n${r.stderr}`)));
  });
  return {
    url,
    stop() {
      child.kill('SIGINT');
      return result;
    },
  };
}

/** A request over node:http, so that any header can be set, Host included (fetch sets its own); the body parsed as JSON. */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: new Headers(), body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', fail);
    req.end();
  });
}
