// A server that echoes the key back encoded — JSON-escaped in a 400 body (PHP's `\/`, .NET's
// `\u002B`), URL-encoded in a redirect's Location (either hex case), base64 inside a data.error
// detail — through the built CLI over a real socket: the key must appear, in none of these forms, on
// stdout, stderr, the errors CSV, report.json or anything under the state and report directories.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { spawnCli, type CliResult } from '../helpers/cli.js';
import { startServer, type MisbehavingServer, type Step } from '../helpers/misbehaving-server.js';
import { accountsFile, okBody } from './faults-helpers.js';

const KEY = 'enc/Key+with.slash-7Q2w/x';
let server: MisbehavingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const b64 = (prefix: string, url = false) => Buffer.concat([Buffer.from(prefix), Buffer.from(KEY)]).toString(url ? 'base64url' : 'base64');
const pct = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const unicodeAll = (s: string) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`).join('');

/** Every form the tests make the server echo, and the base64 of the key at each alignment. */
function leakedForms(): string[] {
  const forms = [KEY, KEY.replace(/\//g, '\\/'), KEY.replace(/\+/g, '\\u002B'), unicodeAll(KEY), pct(KEY), lowerHex(pct(KEY)), pct(pct(KEY))];
  for (const prefix of ['', 'B', 'Be', 'Bearer ']) {
    for (const url of [false, true]) {
      // the characters made of key bits alone: skip the first two and last three to be safe
      const text = b64(prefix, url);
      forms.push(text.slice(Math.ceil((prefix.length * 8) / 6) + 1, -3));
    }
  }
  return forms;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

function expectNoForm(r: CliResult, dir: string): void {
  const places: [string, string][] = [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
    ...filesUnder(dir).map((f): [string, string] => [f, readFileSync(f, 'utf8')]),
  ];
  expect(
    places.map(([p]) => p).some((p) => p.endsWith('report.json')),
    'a report.json was written',
  ).toBe(true);
  for (const [where, text] of places) for (const form of leakedForms()) expect(text, `${form} in ${where}`).not.toContain(form);
}

const SERVERS: [string, Step, number][] = [
  [
    'a 400 body with the key JSON-escaped (\\/ as PHP)',
    {
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: `{"message":"VALIDATION_ERROR","detail":"key \\"${KEY.replace(/\//g, '\\/')}\\" is not valid here"}`,
    },
    1,
  ],
  [
    'a 400 body with the key JSON-escaped (\\u002B as .NET)',
    { status: 400, headers: { 'content-type': 'application/json' }, body: `{"message":"bad key ${KEY.replace(/\+/g, '\\u002B')}","all":"${unicodeAll(KEY)}"}` },
    1,
  ],
  [
    'a redirect whose Location holds the key URL-encoded (upper-case hex)',
    { status: 307, headers: { location: `http://127.0.0.1:9/login?key=${pct(KEY)}&again=${pct(pct(KEY))}` } },
    3,
  ],
  [
    'a redirect whose Location holds the key URL-encoded (lower-case hex)',
    { status: 302, headers: { location: `http://127.0.0.1:9/login?key=${lowerHex(pct(KEY))}` } },
    3,
  ],
];

describe('the key echoed back encoded', () => {
  const cases = SERVERS.flatMap(([name], i) => [[name, 'human', i] as const, [name, 'json', i] as const]);
  test.each(cases)('%s (%s report)', async (_name, format, i) => {
    const [, step, code] = SERVERS[i]!;
    server = await startServer([], step);
    await expectMasked(code, format);
  });

  test.each(['human', 'json'] as const)('a data.error detail with the key in base64 at every alignment (%s report)', async (format) => {
    server = await startServer([], {
      respond: (req) => ({
        status: 200,
        body: okBody(req, [
          {
            message: 'VALIDATION_ERROR',
            detail: `items[0] externalId=A-1: token ${b64('')} / ${b64('B')} / ${b64('Be', true)} / ${b64('Bearer ')} is not allowed`,
          },
        ]),
      }),
    });
    await expectMasked(1, format);
  });
});

async function expectMasked(code: number, format: 'human' | 'json'): Promise<void> {
  const { dir, file, stateDir } = accountsFile(2);
  const r = await spawnCli(
    ['push', '--retries', '0', '--verbose', '--format', format, '--incremental', '--state-dir', stateDir, '--errors', join(dir, 'failed.csv'), file],
    {
      env: { BATCH_SYNC_API_KEY: KEY, BATCH_SYNC_BASE_URL: server!.url },
    },
  );
  expect(r.code, r.stderr).toBe(code);
  // the server's text did reach the outputs (the check below looked at something), masked
  expect(readFileSync(join(dir, 'failed.csv'), 'utf8')).toContain('***');
  expectNoForm(r, dir);
}

// issue 28 item 3: a server that writes its error as HTML escapes & < > " ' by name. With such a key
// the whole key leaked into every output; the JUnit XML's own escaping of the raw key is the same text.
describe('the key echoed back with named HTML entities (&amp; &lt; &gt; &quot; &apos;)', () => {
  const HTML_KEY = `html&Key<7>"q'Z-9x&w`;
  const named = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
  const forms = [
    HTML_KEY,
    named(HTML_KEY),
    named(HTML_KEY).replace(/&apos;/g, "'"),
    named(HTML_KEY).replace(/&apos;/g, '&#39;'),
    named(HTML_KEY).replace(/&(amp|lt|gt|quot);/g, (_, n: string) => `&${n.toUpperCase()};`),
    named(named(HTML_KEY)),
    // the key's letters between its escaped characters: never 4 in a row of it
    'Key&',
    'Key<',
    '9x&w',
  ];

  test.each(['human', 'json', 'github'] as const)('in a data.error detail and a 400 HTML body: masked in every output (%s report)', async (format) => {
    server = await startServer(
      [
        {
          respond: (req) => ({
            status: 200,
            body: okBody(req, [
              {
                message: 'VALIDATION_ERROR',
                detail: `items[0] externalId=A-1: <p>key ${named(HTML_KEY)} (or ${named(named(HTML_KEY))}, ${named(HTML_KEY)
                  .replace(/&quot;/g, '&#34;')
                  .replace(/&(lt|gt);/g, (_, n: string) => `&${n.toUpperCase()};`)}) is not allowed</p>`,
              },
            ]),
          }),
        },
      ],
      { status: 400, headers: { 'content-type': 'text/html' }, body: `<html><body>bad key: ${named(HTML_KEY)}</body></html>` },
    );
    const { dir, file, stateDir } = accountsFile(2);
    const summary = join(dir, 'step-summary.md');
    const r = await spawnCli(
      [
        'push',
        '--retries',
        '0',
        '--batch-size',
        '1',
        '--verbose',
        '--format',
        format,
        '--incremental',
        '--state-dir',
        stateDir,
        '--errors',
        join(dir, 'failed.csv'),
        '--junit',
        join(dir, 'junit.xml'),
        file,
      ],
      { env: { BATCH_SYNC_API_KEY: HTML_KEY, BATCH_SYNC_BASE_URL: server.url, GITHUB_STEP_SUMMARY: summary } },
    );
    expect(r.code, r.stderr).toBeGreaterThan(0);
    // the server's texts reached the outputs, masked
    expect(readFileSync(join(dir, 'failed.csv'), 'utf8')).toContain('***');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('***');
    if (format === 'github') expect(readFileSync(summary, 'utf8')).toMatch(/batch-sync push/);
    const places: [string, string][] = [
      ['stdout', r.stdout],
      ['stderr', r.stderr],
      ...filesUnder(dir).map((f): [string, string] => [f, readFileSync(f, 'utf8')]),
    ];
    expect(places.some(([p]) => p.endsWith('report.json'))).toBe(true);
    for (const [where, text] of places) for (const form of forms) expect(text, `${form} in ${where}`).not.toContain(form);
  });
});
