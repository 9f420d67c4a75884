// The JSON Schemas' resource-name pattern (contract/json-schema.ts resourceNamePattern) takes exactly
// the names parseResource takes: every spelling in any case, including characters outside ASCII that
// String#toLowerCase turns into an ASCII letter (the Kelvin sign K for k), with white space around.
import { expect, test } from 'vitest';
import { resourceNamePattern } from '../../src/contract/json-schema.js';
import { parseResource, resourceSpellings } from '../../src/contract/resources.js';

test('every BMP character that lowers to an ASCII letter is in the pattern, and the pattern agrees with parseResource', () => {
  const pattern = new RegExp(resourceNamePattern(), 'u');
  const lowersTo = new Map<string, string[]>();
  for (let code = 0; code <= 0xffff; code++) {
    const char = String.fromCharCode(code);
    const lower = char.toLowerCase();
    if (/^[a-z]$/.test(lower)) lowersTo.set(lower, [...(lowersTo.get(lower) ?? []), char]);
  }
  let tried = 0;
  for (const name of resourceSpellings()) {
    for (let i = 0; i < name.length; i++) {
      for (const variant of lowersTo.get(name[i]!) ?? [name[i]!]) {
        const spelled = ` ${name.slice(0, i)}${variant}${name.slice(i + 1)}\t`;
        expect(pattern.test(spelled), JSON.stringify(spelled)).toBe(parseResource(spelled) !== undefined);
        expect(pattern.test(spelled), JSON.stringify(spelled)).toBe(true);
        tried++;
      }
    }
  }
  for (const wrong of ['dael', 'deal s', '', 'accounts2', 'sales_profile', 'İnvalid'])
    expect(pattern.test(wrong), wrong).toBe(parseResource(wrong) !== undefined);
  expect(tried).toBeGreaterThan(100);
});
