// The one way batch-sync writes a page (the run report, history, the sandbox's page): a whole,
// self-contained document whose only live code is the script it was given. Values from an export
// reach a page in two ways only, both inert by construction: as escaped text in the markup
// (escapeHtml), or inside the page's data block, a <script type="application/json"> the browser
// never runs, read by the page's script with JSON.parse and shown with textContent. The Content-
// Security-Policy allows exactly the page's own script and style (by their SHA-256), no other
// script, style, frame, form target or network request: were an escape ever missed, nothing from
// the data could run or call out.
import { createHash } from 'node:crypto';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML text or attribute value: nothing in it is markup. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * JSON for a <script type="application/json"> block: `<`, `>` and `&` written as \u escapes, so
 * no value can close the block (`</script>`) or open a comment; U+2028/2029 escaped as well.
 */
export function jsonForPage(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export interface PageParts {
  title: string;
  /** The page's one style sheet (inline). */
  style: string;
  /** The page's one script (inline), or none. */
  script?: string;
  /** The body's markup: built with escapeHtml around every value. */
  body: string;
  /** Data for the script, read with JSON.parse(document.getElementById('page-data').textContent). */
  data?: unknown;
  /** Same-origin requests the page's script may make (the sandbox's page refreshes); none by default. */
  connectSelf?: boolean;
  lang?: string;
}

/** The Content-Security-Policy of a page with this style and script. */
function pagePolicy(parts: Pick<PageParts, 'style' | 'script' | 'connectSelf'>): string {
  return [
    "default-src 'none'",
    `style-src ${sha256(parts.style)}`,
    parts.script === undefined ? "script-src 'none'" : `script-src ${sha256(parts.script)}`,
    'img-src data:',
    parts.connectSelf ? "connect-src 'self'" : "connect-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** The whole document. */
export function htmlPage(parts: PageParts): string {
  const data = parts.data === undefined ? '' : `<script type="application/json" id="page-data">${jsonForPage(parts.data)}</script>\n`;
  const script = parts.script === undefined ? '' : `<script>${parts.script}</script>\n`;
  return `<!doctype html>
<html lang="${escapeHtml(parts.lang ?? 'en')}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(pagePolicy(parts))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(parts.title)}</title>
<style>${parts.style}</style>
</head>
<body>
${parts.body}
${data}${script}</body>
</html>
`;
}
