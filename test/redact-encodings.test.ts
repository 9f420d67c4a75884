// The redactor masks a secret in every form a server or proxy may echo it in: JSON-escaped (any
// character, once or twice), URL-encoded (either hex case, twice), HTML references, base64 at any
// alignment (standard and URL-safe), hex. Examples first, then fast-check over keys and encodings.
import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { addSecret, clearSecrets, redact } from '../src/redact.js';

afterEach(() => clearSecrets());

const KEY = 'k3y+/with spaces&"quote\\-<Äö>\'Z9😀';
const bytes = Buffer.from(KEY);
const jsonAll = (s: string, upper = false) =>
  Array.from({ length: s.length }, (_, i) => `\\u${s.charCodeAt(i).toString(16).padStart(4, '0')}`)
    .join('')
    .replace(/\\u([0-9a-f]{4})/g, (_, h: string) => `\\u${upper ? h.toUpperCase() : h}`);
const htmlNamed = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const b64At = (prefix: string, suffix: string, url = false) =>
  Buffer.concat([Buffer.from(prefix), bytes, Buffer.from(suffix)]).toString(url ? 'base64url' : 'base64');

const FORMS: [string, string][] = [
  ['raw', KEY],
  ['JSON', JSON.stringify(KEY)],
  ['JSON with \\/ (PHP)', JSON.stringify(KEY).replace(/\//g, '\\/')],
  ['JSON of JSON', JSON.stringify(JSON.stringify(KEY))],
  ['every character \\uXXXX, lower hex', jsonAll(KEY)],
  ['every character \\uXXXX, upper hex (.NET)', jsonAll(KEY, true)],
  ['only + as \\u002B', KEY.replace('+', '\\u002B')],
  ['URL-encoded', encodeURIComponent(KEY)],
  ['URL-encoded, lower hex', encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ['URL-encoded twice', encodeURIComponent(encodeURIComponent(KEY))],
  ['form-encoded (+ for space)', new URLSearchParams({ k: KEY }).toString()],
  ['HTML references', [...KEY].map((c) => `&#${c.codePointAt(0)};`).join('')],
  ['HTML hex references', [...KEY].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join('')],
  // issue 28 item 3: a server that renders its error as HTML escapes & < > " ' by name
  ['HTML named entities', htmlNamed(KEY)],
  ['HTML named entities, upper case (&AMP; &LT; &GT; &QUOT;)', htmlNamed(KEY).replace(/&(amp|lt|gt|quot);/g, (_, n: string) => `&${n.toUpperCase()};`)],
  ['HTML named entities escaped twice (&amp;amp; &amp;lt;)', htmlNamed(htmlNamed(KEY))],
  [
    'HTML named and numeric references mixed',
    htmlNamed(KEY)
      .replace(/&quot;/g, '&#34;')
      .replace(/ /g, '&#x20;'),
  ],
  ['HTML numeric references escaped again (&amp;#43;)', [...KEY].map((c) => `&amp;#${c.codePointAt(0)};`).join('')],
  ['base64', bytes.toString('base64')],
  ['base64 after 1 byte', b64At('A', 'tail')],
  ['base64 after 2 bytes', b64At('AB', 'z')],
  ['base64url after "Bearer "', b64At('Bearer ', '', true)],
  ['base64 with \\/ (PHP)', b64At('x', 'yy').replace(/\//g, '\\/')],
  ['hex', bytes.toString('hex')],
  ['HEX', bytes.toString('hex').toUpperCase()],
];

describe('every form of the key is masked', () => {
  test.each(FORMS)('%s', (_name, form) => {
    addSecret(KEY);
    const out = redact(`before ${form} after`);
    expect(out).toMatch(/^before .*\*\*\*.* after$/);
    // what is left is at most a few characters of the edges of an encoding: never 4 in a row of
    // the key's own text
    for (let i = 0; i + 4 <= KEY.length; i++) expect(out).not.toContain(KEY.slice(i, i + 4));
  });

  test('text that only looks alike is kept', () => {
    addSecret('abcd-1234-efgh');
    expect(redact('abcd-1234 efgh, %61bc, YWJj, 61626364 end')).toBe('abcd-1234 efgh, %61bc, YWJj, 61626364 end');
    expect(redact('ends with abc')).toBe('ends with abc');
  });
});

describe('properties', () => {
  const keys = fc.string({ unit: fc.constantFrom(...'abcXYZ019+/=-_.~ !"\\&%#é😀<>\';'), minLength: 8, maxLength: 40 });
  test('base64 of the key at any offset inside other bytes leaves no 6 characters of the inner base64', () => {
    fc.assert(
      fc.property(keys, fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), fc.boolean(), (key, before, after, url) => {
        clearSecrets();
        addSecret(key);
        const whole = Buffer.concat([before, Buffer.from(key), after]);
        const out = redact(whole.toString(url ? 'base64url' : 'base64'));
        expect(out).toContain('***');
        // decoding what is left never yields the key
        expect(Buffer.from(out.replace(/\*\*\*/g, ''), 'base64').toString('latin1')).not.toContain(key);
      }),
    );
  });

  test('each character raw, \\uXXXX-, %XX-, &#…;- or &name;-escaped at random: masked', () => {
    fc.assert(
      fc.property(keys, fc.infiniteStream(fc.integer({ min: 0, max: 5 })), (key, picks) => {
        clearSecrets();
        addSecret(key);
        const it = picks[Symbol.iterator]();
        const mixed = [...key]
          .map((c) => {
            const pick = it.next().value as number;
            if (pick === 1) return Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('');
            if (pick === 2) return encodeURIComponent(c) === c ? `%${c.charCodeAt(0).toString(16)}` : encodeURIComponent(c);
            if (pick === 3) return `&#${c.codePointAt(0)};`;
            // a named entity where HTML has one (& < > " '), escaped once or twice
            if (pick === 4) return htmlNamed(c);
            if (pick === 5) return htmlNamed(htmlNamed(c));
            return c;
          })
          .join('');
        expect(redact(`<${mixed}>`)).toBe('<***>');
      }),
    );
  });
});

test('a long text is redacted in linear time (no combinatorial pattern)', () => {
  addSecret(KEY);
  addSecret('another-secret-0123456789');
  const text = 'abc%2 \\u00 +/=&#1 k3y\\u002'.repeat(200_000);
  expect(redact(text)).toBe(text);
});

describe('a text cut to a length inside an encoded key (a body read up to a limit)', () => {
  test.each(FORMS.filter(([name]) => !name.startsWith('hex') && !name.startsWith('HEX')))('%s, cut at 70 percent: the cut end is masked', (_name, form) => {
    addSecret(KEY);
    const cut = form.slice(0, Math.ceil(form.length * 0.7));
    const out = redact(`body: ${cut}`);
    expect(out.endsWith('***'), out).toBe(true);
    expect(out.length).toBeLessThan(`body: ${cut}`.length);
    for (let i = 0; i + 4 <= KEY.length; i++) expect(out).not.toContain(KEY.slice(i, i + 4));
  });
});
