// "Did you mean": names close to one that was not found, compared without case, accents or punctuation.
import { fold } from './transforms/text.js';

const squash = (s: string) => fold(s).replace(/[^a-z0-9]/g, '');

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(up + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** Up to `limit` candidates within a third of the name's length (or sharing a prefix), closest first. */
export function closeMatches(name: string, candidates: readonly string[], limit = 3): string[] {
  const target = squash(name);
  return candidates
    .map((c) => {
      const s = squash(c);
      const d = s === target ? 0 : s.includes(target) || target.includes(s) ? 1 : distance(target, s);
      return { c, d };
    })
    .filter(({ d }) => d <= Math.max(2, Math.ceil(target.length / 3)))
    .sort((x, y) => x.d - y.d)
    .slice(0, limit)
    .map(({ c }) => `"${c}"`);
}
