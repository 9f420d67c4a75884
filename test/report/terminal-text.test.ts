// The terminal guard: no control character survives it, and on JSON text it changes only the
// notation (the parsed values are the same), so `--format json` stays exact.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { terminalSafe, visible } from '../../src/report/terminal-text.js';

const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const anyText = fc.string({
  unit: fc.oneof(fc.constantFrom('\r', '\n', '\t', '\u001b', '\u0007', '\u009b', '\u007f', '\u202e', '[', 'K', 'a', 'é', '\\'), fc.string({ unit: 'binary' })),
});

describe('terminal text', () => {
  test('visible: one line, no control left', () => {
    fc.assert(
      fc.property(anyText, (s) => {
        expect(visible(s)).not.toMatch(RAW_CONTROL);
        expect(visible(s)).not.toContain('\n');
      }),
    );
  });

  test('terminalSafe on JSON: the same values, no control but newlines', () => {
    fc.assert(
      fc.property(fc.dictionary(anyText, anyText), (o) => {
        const text = terminalSafe(JSON.stringify(o, null, 2), false);
        expect(text.replace(/\n/g, '')).not.toMatch(RAW_CONTROL);
        expect(JSON.parse(text)).toEqual(o);
      }),
    );
  });

  test('with colours: our SGR kept, anything else escaped', () => {
    expect(terminalSafe('\u001b[31mFAILED\u001b[39m \u001b[8mhidden\u001b[28m \u001b]0;t\u0007', true)).toBe(
      '\u001b[31mFAILED\u001b[39m \\u001b[8mhidden\\u001b[28m \\u001b]0;t\\u0007',
    );
    expect(terminalSafe('\u001b[31mx', false)).toBe('\\u001b[31mx');
  });
});
