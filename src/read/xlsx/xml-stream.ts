// One workbook part through saxes, a streaming XML parser: elements arrive as events, never as a
// tree, so a sheet of a million rows costs the memory of one row. Saxes expands no entities of a
// DTD (no billion-laughs), and text between two tags is capped: the one thing saxes would otherwise
// hold whole however long it grows.
import type { Readable } from 'node:stream';
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
  stream.setEncoding('utf8');
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
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

/** Reads a whole (small) part for its events only; `namespaces`: each element's namespace to `open`. */
export async function readXml(stream: Readable, handlers: XmlHandlers, maxTextChars: number, namespaces = false): Promise<void> {
  for await (const _ of parseXml(stream, handlers, maxTextChars, namespaces));
}
