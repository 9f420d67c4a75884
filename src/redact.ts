// The API key never appears in output: every text that leaves the process passes through here.
// A server may echo the key back in another form than it was sent, so each secret is matched as
// itself and as the forms servers and proxies write it in:
// - JSON-escaped, any character of it: `\u002B` (.NET escapes +, <, >, & and non-ASCII), `\/` (PHP),
//   `\"`, `\\`, `\n`…, also escaped twice (`\\u002B`, JSON inside a JSON string);
// - URL-encoded: `%2B` / `%2b` (either hex case), `%252B` (encoded twice), `+` for a space;
// - HTML character references: `&#43;`, `&#x2B;`, and by name (`&amp;`, `&lt;`, `&gt;`, `&quot;`,
//   `&apos;`), also escaped again (`&amp;#43;`, `&amp;amp;`);
// - base64, standard and URL-safe, of the key at each of the 3 byte alignments it can have inside a
//   longer base64 text (`Basic` credentials, a dumped header block), and hex in either case.
// Rather than listing every mix of escaped and raw characters, one pattern per secret lets each
// character appear raw or in any of its escapes: its size grows with the key's length, not with the
// number of combinations.

interface SecretPatterns {
  /** Every form, anywhere. */
  whole: RegExp;
  /** The first 4 or more characters of a form at the very end of a text (cut inside it). */
  cut: RegExp;
  /** How far from the end a cut form can start: the longest escape of a character is ~12 characters. */
  reach: number;
}

const patterns = new Map<string, SecretPatterns>();

/** Registers a value (the API key, proxy credentials) to be masked wherever it would be printed. */
export function addSecret(value: string | undefined): void {
  if (value && value.length >= 4 && !patterns.has(value)) patterns.set(value, secretPatterns(value));
}

export function redact(text: string): string {
  let out = text;
  for (const { whole, cut, reach } of patterns.values()) {
    out = out.replace(whole, '***');
    // a text cut to a length inside a secret (a body read up to a limit) ends with its beginning
    const from = Math.max(0, out.length - reach);
    const m = cut.exec(out.slice(from));
    if (m) out = `${out.slice(0, from + m.index)}***`;
  }
  // credentials in URLs: scheme://user:pass@host
  return out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+:[^\s/@]+@/gi, '$1***:***@');
}

/** For tests: forget registered secrets. */
export function clearSecrets(): void {
  patterns.clear();
}

/** The texts a secret is written as before escaping: itself, its base64 fragments and its hex. */
function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const forms = new Set([value, bytes.toString('hex'), bytes.toString('hex').toUpperCase()]);
  for (let offset = 0; offset < 3; offset++) {
    // the key after `offset` other bytes: keep only the base64 characters made of key bits alone
    const b64 = Buffer.concat([Buffer.alloc(offset), bytes, Buffer.alloc(3)]).toString('base64');
    const inner = b64.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (inner.length < 4) continue;
    forms.add(inner);
    forms.add(inner.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...forms];
}

/** Regexes matching every form of the secret, each character raw or escaped; whole, or cut at the end. */
function secretPatterns(value: string): SecretPatterns {
  const forms = secretForms(value).sort((a, b) => b.length - a.length);
  const chars = forms.map((form) => [...form].map(charPattern));
  const whole = new RegExp(chars.map((c) => c.join('')).join('|'), 'g');
  // 4 characters, then each further one only if the one before it is there; the cut may also have
  // left an escape half written (`\u00`, `%2`, `&#4`, `&amp;#12`, `&quo`)
  // (4 characters of the key itself, 8 of its base64 or hex: 4 are only 2 or 3 of its bytes)
  const prefixes = chars.map((c, i) => {
    const least = forms[i] === value ? 4 : 8;
    return c.slice(0, least).join('') + c.slice(least).reduceRight((rest, one) => `(?:${one}${rest})?`, '');
  });
  const cut = new RegExp(`(?:${prefixes.join('|')})[\\\\%&#;0-9a-zA-Z]{0,12}$`);
  return { whole, cut, reach: 16 * Math.max(...forms.map((f) => f.length)) };
}

const REGEX_SPECIAL = /[\\^$.*+?()[\]{}|/-]/;
/** What follows the `&` of the named HTML entities, as a regex. */
const HTML_NAMED: Record<string, string> = { '&': '(?:amp|AMP);?', '<': '(?:lt|LT);?', '>': '(?:gt|GT);?', '"': '(?:quot|QUOT);?', "'": 'apos;' };
/** What follows the backslash in JSON's short escapes, as a regex. */
const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\\\', '/': '\\/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };

/** A character raw, or JSON-, URL- or HTML-escaped (escapes may be escaped again). */
function charPattern(ch: string): string {
  const alts: string[] = [];
  // JSON: \uXXXX per UTF-16 unit (a surrogate pair for an emoji), any number of backslashes before
  alts.push(Array.from({ length: ch.length }, (_, i) => `\\\\+u${hexPattern(ch.charCodeAt(i), 4)}`).join(''));
  const short = JSON_SHORT[ch];
  if (short !== undefined) alts.push(`\\\\+${short}`);
  // URL: %XX per UTF-8 byte, %25 for each further round of encoding; + for a space in a form or query
  alts.push([...Buffer.from(ch, 'utf8')].map((b) => `%(?:25)*${hexPattern(b, 2)}`).join(''));
  if (ch === ' ') alts.push('\\+');
  // HTML: &#43; and &#x2B;, and by name for the five that have one (&amp; &lt; &gt; &quot; &apos;,
  // the first four also upper case and without `;`, as HTML reads them); `&amp;` for each further
  // round of escaping (`&amp;#43;`, `&amp;lt;`)
  const cp = ch.codePointAt(0)!;
  alts.push(`&(?:amp;)*#(?:[xX]0*${hexPattern(cp, 1)}|0*${cp});`);
  const named = HTML_NAMED[ch];
  if (named !== undefined) alts.push(`&(?:amp;)*${named}`);
  // raw last: the escapes start with a character (\\, %, &) that may itself be part of the key
  alts.push(REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch);
  return `(?:${alts.join('|')})`;
}

/** Hex digits of n, at least `width` of them, each letter in either case. */
function hexPattern(n: number, width: number): string {
  return [...n.toString(16).padStart(width, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}
