// Templates: `"{opportunity_id} – {product}"`, `"{sales_agent|slug}@example.invalid"`. Parsed once
// into literal and placeholder parts; `{{` and `}}` stand for literal braces.
import { TEXT_TRANSFORMS, type TextTransform } from './profile-schema.js';

type TemplatePart = { literal: string } | { column: string; transforms: TextTransform[] };
export type TemplateParse = { ok: true; parts: TemplatePart[] } | { ok: false; reason: string };

const TOKEN = /\{\{|\}\}|\{([^{}]*)\}|[{}]/g;

export function parseTemplate(template: string): TemplateParse {
  const parts: TemplatePart[] = [];
  let literal = '';
  let last = 0;
  for (const m of template.matchAll(TOKEN)) {
    literal += template.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '{{' || m[0] === '}}') {
      literal += m[0][0];
      continue;
    }
    if (m[1] === undefined) return { ok: false, reason: `unbalanced "${m[0]}" at character ${m.index + 1} (write {{ or }} for a literal brace)` };
    const [column = '', ...names] = m[1].split('|').map((s) => s.trim());
    if (!column) return { ok: false, reason: `empty placeholder at character ${m.index + 1}` };
    for (const n of names) {
      if (!(TEXT_TRANSFORMS as readonly string[]).includes(n)) {
        return { ok: false, reason: `unknown transform "${n}" in {${m[1]}}; templates take ${TEXT_TRANSFORMS.join(', ')}` };
      }
    }
    if (literal) parts.push({ literal });
    literal = '';
    parts.push({ column, transforms: names as TextTransform[] });
  }
  literal += template.slice(last);
  if (literal) parts.push({ literal });
  return { ok: true, parts };
}
