// `replace`: a profile's regular expressions over a cell's text, in order, every match replaced
// (`$1` for a group). The patterns compiled once per field, on the linear-time engine (a cell can
// never make one run for ever); the profile's schema has checked they compile there.
import { linearReplacer } from '../../util/linear-regexp.js';
import type { ReplaceRule } from '../profile-schema.js';

export interface CompiledReplace {
  apply(text: string): string;
  /** The index of the rule that left a filled text empty (for the message that says so), or -1. */
  emptiedBy(text: string): number;
}

export function compileReplace(rules: readonly ReplaceRule[] | undefined): CompiledReplace | undefined {
  if (rules === undefined || rules.length === 0) return undefined;
  const compiled = rules.map((r) => ({ replace: linearReplacer(r.pattern, r.flags), with: r.with }));
  return {
    apply(text) {
      let out = text;
      for (const r of compiled) out = r.replace(out, r.with);
      return out;
    },
    // asked only for a row about to be invalid: the rules run again, one at a time
    emptiedBy(text) {
      let out = text;
      let by = -1;
      compiled.forEach((r, i) => {
        const next = r.replace(out, r.with);
        if (out !== '' && next === '') by = i;
        out = next;
      });
      return by;
    },
  };
}

/** `fields.title.replace[1] (/^(n\/?a|-)$/i)`: a rule as a message names it. */
export function replaceRuleName(rules: readonly ReplaceRule[], index: number, where: string): string {
  const rule = rules[index]!;
  return `${where}.replace[${index}] (/${rule.pattern}/${rule.flags ?? ''})`;
}
