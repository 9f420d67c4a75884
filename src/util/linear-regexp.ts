// A pattern a user wrote (a profile's `replace`) runs in linear time: `^(a+)+$` over a 41-character
// cell would otherwise backtrack for ever in V8's usual engine, with nothing printed, SIGTERM unheard
// (the main thread never yields) and the state lock held. Two linear-time engines, one contract:
// V8's own (the `l` flag, behind --enable-experimental-regexp-engine on every Node batch-sync runs
// on), as fast as the usual one, takes most patterns; what it refuses (the `i` and `u` flags,
// lookaround) goes to re2js, a port of RE2 (the same replacement syntax: $1, $&, $<name>, $$), loaded
// only then. A pattern neither can run in linear time (a back-reference) is refused when the profile
// loads.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type { RE2JS as RE2JSClass } from 're2js';

/** A compiled pattern: every match in a text replaced. */
export type Replacer = (text: string, replacement: string) => string;

let v8Linear = false;
let re2js: typeof RE2JSClass | undefined;

/** `pattern` with JavaScript `flags` (g implied; i, m, s, u) compiled on a linear-time engine; throws when none can run it so. */
export function linearReplacer(pattern: string, flags = ''): Replacer {
  if (!v8Linear) {
    // process-wide, the read worker's isolate included; harmless when it is already set
    setFlagsFromString('--enable-experimental-regexp-engine');
    v8Linear = true;
  }
  const own = flags.replace('g', '');
  try {
    const re = new RegExp(pattern, `${own}gl`);
    return (text, replacement) => text.replace(re, replacement);
  } catch {
    // not on V8's linear engine: RE2's
  }
  re2js ??= (createRequire(import.meta.url)('re2js') as { RE2JS: typeof RE2JSClass }).RE2JS;
  const R = re2js;
  const re = R.compile(pattern, (own.includes('i') ? R.CASE_INSENSITIVE : 0) | (own.includes('m') ? R.MULTILINE : 0) | (own.includes('s') ? R.DOTALL : 0));
  return (text, replacement) => re.matcher(text).replaceAll(replacement);
}
