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

const local = (name: string) => {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
};

/**
 * Parses `stream`, yielding after each chunk so the caller can hand on what the handlers collected;
 * returning early (a `break` in the caller's loop) destroys the stream.
 */
export async function* parseXml(stream: Readable, handlers: XmlHandlers, maxTextChars: number, namespaces = false): AsyncGenerator<void> {
  const parser = new SaxesParser({ position: false, xmlns: namespaces });
  let sinceTag = 0;
  let failure: Error | undefined;
  parser.on('error', (err) => {
    failure ??= new XmlBroken(err.message);
  });
  parser.on('opentag', (tag) => {
    sinceTag = 0;
    if (namespaces) {
      const attributes: Record<string, string> = {};
      for (const [name, a] of Object.entries(tag.attributes)) attributes[name] = typeof a === 'string' ? a : a.value;
      handlers.open?.(local(tag.name), attributes, (tag as { uri?: string }).uri);
    } else handlers.open?.(local(tag.name), tag.attributes as Record<string, string>);
  });
  parser.on('closetag', (tag) => {
    sinceTag = 0;
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
