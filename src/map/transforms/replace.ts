// `replace`: a profile's regular expressions over a cell's text, in order, every match replaced
// (`$1` for a group). The patterns compiled once per field; the profile's schema has checked they do.
import type { ReplaceRule } from '../profile-schema.js';

export function compileReplace(rules: readonly ReplaceRule[] | undefined): ((text: string) => string) | undefined {
  if (rules === undefined || rules.length === 0) return undefined;
  const compiled = rules.map((r) => ({ pattern: new RegExp(r.pattern, (r.flags ?? '').includes('g') ? r.flags : `${r.flags ?? ''}g`), with: r.with }));
  return (text) => {
    let out = text;
    for (const r of compiled) out = out.replace(r.pattern, r.with);
    return out;
  };
}
