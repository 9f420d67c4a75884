import { describe, expect, test } from 'vitest';
import { escapeHtml, htmlPage, jsonForPage } from '../../src/util/html-page.js';

const HOSTILE = `</script><script>alert(1)</script><!-- "quoted" 'single' & javascript:alert(1) \u2028`;

describe('a page built from hostile values', () => {
  test('escaped text holds no markup', () => {
    expect(escapeHtml(HOSTILE)).not.toMatch(/[<>"']/);
    expect(escapeHtml('a & b')).toBe('a &amp; b');
  });

  test('the data block cannot be closed or commented from inside, and reads back the same', () => {
    const json = jsonForPage({ cell: HOSTILE });
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json)).toEqual({ cell: HOSTILE });
  });

  test('the policy allows exactly the page own script and style, no network', () => {
    const page = htmlPage({ title: HOSTILE, style: 'p{}', script: 'void 0;', body: '<p>x</p>', data: [HOSTILE] });
    expect(page.match(/<script>/g)).toHaveLength(1);
    expect(page).toContain(escapeHtml("connect-src 'none'"));
    expect(page).toMatch(/script-src &#39;sha256-[A-Za-z0-9+/=]+&#39;/);
    expect(page).not.toContain('<script>alert');
  });
});
