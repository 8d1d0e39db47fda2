import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { SaxesParser } from 'saxes';
import type { SafeZip } from '../zip/safe-zip.js';

/**
 * Streaming XML over the parts of a workbook (saxes: no DTD entities, so no entity bombs and no
 * external references). Element and attribute names are matched by local name, whatever prefix
 * the file bound its namespace to, so Strict OOXML (purl.oclc.org namespaces) and prefixed
 * Transitional (`<x:c>`) read the same as the usual default namespace.
 */

export interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

export function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

/** An attribute by local name (`r:id`, `id`), whatever its prefix. */
export function attribute(attributes: Record<string, string>, local: string): string | undefined {
  const plain = attributes[local];
  if (plain !== undefined) return plain;
  for (const name in attributes) {
    if (localName(name) === local) return attributes[name];
  }
  return undefined;
}

/** A parser that reports local names; errors are thrown from `write`/`close`. */
export function createXmlParser(handlers: XmlHandlers): SaxesParser {
  const parser = new SaxesParser();
  const { open, text, close } = handlers;
  if (open) {
    parser.on('opentag', (node) =>
      open(localName(node.name), node.attributes as Record<string, string>),
    );
  }
  if (text) {
    parser.on('text', text);
    parser.on('cdata', text);
  }
  if (close) parser.on('closetag', (node) => close(localName(node.name)));
  return parser;
}

/**
 * The text of a part, decoded across chunk edges: UTF-8 unless a byte-order mark says UTF-16
 * (which XML allows and some exporters write).
 */
export async function* xmlText(bytes: Readable): AsyncGenerator<string> {
  let decoder: TextDecoder | undefined;
  let head = Buffer.alloc(0);
  try {
    for await (const chunk of bytes as AsyncIterable<Buffer>) {
      if (!decoder) {
        head = Buffer.concat([head, chunk]);
        if (head.length < 2) continue;
        // fatal: a byte that is not the declared encoding is damage to report, never a U+FFFD.
        decoder = new TextDecoder(utfLabel(head), { fatal: true });
        yield decoder.decode(head, { stream: true });
        continue;
      }
      yield decoder.decode(chunk, { stream: true });
    }
    if (!decoder) {
      if (head.length > 0) yield new TextDecoder('utf-8', { fatal: true }).decode(head);
      return;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    bytes.destroy();
  }
}

function utfLabel(head: Buffer): string {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return 'utf-8';
}

/** Reads one whole part through `handlers`, refusing it if it declares more than `maxBytes`. */
export async function parseXmlPart(
  zip: SafeZip,
  part: string,
  handlers: XmlHandlers,
  maxBytes?: number,
): Promise<void> {
  const parser = createXmlParser(handlers);
  for await (const chunk of xmlText(await zip.openStream(part, maxBytes))) parser.write(chunk);
  parser.close();
}
