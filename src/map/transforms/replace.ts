// `replace`: a profile's regular expressions over a cell's text, in order, every match replaced
// (`$1` for a group). The patterns compiled once per field, on the linear-time engine (a cell can
// never make one run for ever); the profile's schema has checked they compile there.
import { linearReplacer } from '../../util/linear-regexp.js';
import type { ReplaceRule } from '../profile-schema.js';

export function compileReplace(rules: readonly ReplaceRule[] | undefined): ((text: string) => string) | undefined {
  if (rules === undefined || rules.length === 0) return undefined;
  const compiled = rules.map((r) => ({ replace: linearReplacer(r.pattern, r.flags), with: r.with }));
  return (text) => {
    let out = text;
    for (const r of compiled) out = r.replace(out, r.with);
    return out;
  };
}
