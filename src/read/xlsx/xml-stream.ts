// One workbook part through saxes, a streaming XML parser: elements arrive as events, never as a
// tree, so a sheet of a million rows costs the memory of one row. Saxes expands no entities of a
// DTD (no billion-laughs), and text between two tags is capped: the one thing saxes would otherwise
// hold whole however long it grows.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import iconv from 'iconv-lite';
import { SaxesParser } from 'saxes';

export interface XmlHandlers {
  /**
   * An element's start: its local name (any `x:` prefix dropped) and attributes; with `namespaces`
   * (readXml), its namespace too, so `x15:workbookPr` is told from the main `workbookPr`.
   */
  open?(name: string, attributes: Record<string, string>, namespace?: string): void;
  close?(name: string): void;
  text?(text: string): void;
}

export class XmlTooLong extends Error {}
export class XmlBroken extends Error {}

const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** The prefixes in scope inside an element: its parent's, and those its own `xmlns` attributes bind ('' the default). */
function declared(parent: Record<string, string>, attributes: Record<string, string>): Record<string, string> {
  let scope = parent;
  for (const name in attributes) {
    if (name !== 'xmlns' && !name.startsWith('xmlns:')) continue;
    if (scope === parent) scope = { ...parent };
    scope[name === 'xmlns' ? '' : name.slice(6)] = attributes[name]!;
  }
  return scope;
}

const local = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Parses `stream`, yielding after each chunk so the caller can hand on what the handlers collected;
 * returning early (a `break` in the caller's loop) destroys the stream.
 */
export async function* parseXml(stream: Readable, handlers: XmlHandlers, maxTextChars: number, namespaces = false): AsyncGenerator<void> {
  // saxes always without its own namespace handling: a parser in that mode is another shape of
  // object, and once one had read the workbook part, every saxes function ran a third slower on the
  // sheet that followed (V8's feedback for them no longer one shape; 300,000 rows read in 6.3 s of
  // CPU against 4.7). The prefixes in scope are followed here instead, for the small parts that ask.
  const parser = new SaxesParser({ position: false, xmlns: false });
  const scopes: Record<string, string>[] = [{ xml: XML_NAMESPACE }];
  let sinceTag = 0;
  let failure: Error | undefined;
  parser.on('error', (err) => {
    failure ??= new XmlBroken(err.message);
  });
  parser.on('opentag', (tag) => {
    sinceTag = 0;
    const attributes = tag.attributes as Record<string, string>;
    if (namespaces) {
      const scope = declared(scopes[scopes.length - 1]!, attributes);
      scopes.push(scope);
      const colon = tag.name.indexOf(':');
      const prefix = colon < 0 ? '' : tag.name.slice(0, colon);
      const uri = scope[prefix];
      if (uri === undefined && prefix !== '') failure ??= new XmlBroken(`unbound namespace prefix: "${prefix}"`);
      handlers.open?.(local(tag.name), attributes, uri ?? '');
    } else handlers.open?.(local(tag.name), attributes);
  });
  parser.on('closetag', (tag) => {
    sinceTag = 0;
    if (namespaces) scopes.pop();
    handlers.close?.(local(tag.name));
  });
  if (handlers.text) {
    const text = handlers.text.bind(handlers);
    parser.on('text', text);
    parser.on('cdata', text);
  }
  try {
    for await (const chunk of decoded(stream)) {
      sinceTag += chunk.length;
      parser.write(chunk);
      if (failure) throw failure;
      if (sinceTag > maxTextChars) throw new XmlTooLong(`more than ${maxTextChars} characters of text without a tag`);
      yield;
    }
    parser.close();
    if (failure) throw failure;
  } finally {
    stream.destroy();
  }
}

/**
 * The part's text, decoded as it streams, in the encoding XML 1.0 (Appendix F) finds: by its
 * byte-order mark, else by its first character `<` in UTF-16 either way round; otherwise UTF-8,
 * as every part is but those of a few writers (Excel on Windows Phone). An ASCII-compatible
 * declaration naming another encoding is not followed, as before: no .xlsx writer was seen to mean it.
 */
async function* decoded(stream: Readable): AsyncGenerator<string> {
  let head = Buffer.alloc(0);
  let decoder: { write(bytes: Buffer): string; end(): string | undefined } | undefined;
  for await (const data of stream as AsyncIterable<Buffer | string>) {
    // a part's bytes; text (a test's stream of strings) as its UTF-8
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    if (decoder) {
      const text = decoder.write(chunk);
      if (text) yield text;
      continue;
    }
    // the first two bytes tell, however the part's chunks fall
    head = Buffer.concat([head, chunk]);
    if (head.length < 2) continue;
    decoder = decoderFor(head);
    const text = decoder.write(head);
    if (text) yield text;
  }
  decoder ??= decoderFor(head);
  const last = (head.length < 2 ? decoder.write(head) : '') + (decoder.end() ?? '');
  if (last) yield last;
}

function decoderFor(head: Buffer): { write(bytes: Buffer): string; end(): string | undefined } {
  const [a, b] = head;
  // FE FF and FF FE are the marks; 00 3C and 3C 00 a `<` (UTF-8 holds no NUL)
  if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c)) return iconv.getDecoder('utf-16be');
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00)) return iconv.getDecoder('utf-16le');
  return new StringDecoder('utf8');
}

/** Reads a whole (small) part for its events only; `namespaces`: each element's namespace to `open`. */
export async function readXml(stream: Readable, handlers: XmlHandlers, maxTextChars: number, namespaces = false): Promise<void> {
  for await (const _ of parseXml(stream, handlers, maxTextChars, namespaces));
}
