import { gunzipSync } from 'node:zlib';
import { AppError, Errors } from '../../shared/errors.js';
import { MalformedMarkup, scanMarkup } from './xml-markup-scanner.js';

/**
 * SVGs (after gunzip, for .svgz) larger than this are refused before they are parsed: logos and
 * icons are a few KB, and a big one with embedded photos a few MB.
 */
export const MAX_SVG_BYTES = 8 * 1024 * 1024;

/**
 * Encodings whose ASCII bytes mean ASCII characters. In any other (UTF-16, Shift_JIS, ISO-2022,
 * UTF-7, EBCDIC) the bytes this check reads as UTF-8 are not the text librsvg would read.
 */
const ASCII_COMPATIBLE =
  /^(utf-?8|(us-)?ascii|iso[-_]?8859[-_]?\d{1,2}|latin-?\d|(windows|cp)-?125\d)$/i;

/** Encodings with one byte per character, of which the first 128 are ASCII. */
const SINGLE_BYTE = /^(iso[-_]?8859[-_]?\d{1,2}|latin-?\d|(windows|cp)-?125\d)$/i;

/** Text without any of these cannot hold a `url(`, an `@import` or an escape that spells one. */
const MAY_REACH_OUT = /url|@|\\/i;

/** The bytes are gzip: librsvg inflates them and reads an SVG (.svgz), and sharp sends it there. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Starts with markup (after a BOM or spaces): maybe an SVG, so it is checked like one. */
export function looksLikeMarkup(head: Uint8Array): boolean {
  return /^\uFEFF?\s*</.test(Buffer.from(head.subarray(0, 512)).toString('utf8'));
}

/** Whether image bytes would reach librsvg (as sharp decides: markup, or gzip-compressed). */
export function maybeSvg(head: Uint8Array): boolean {
  return isGzip(head) || looksLikeMarkup(head);
}

/**
 * Checks image bytes that may be an SVG (see `maybeSvg`); other images pass untouched. A gzipped
 * SVG is inflated (at most `MAX_SVG_BYTES`) and checked as what librsvg would read.
 */
export function assertSvgBytesSelfContained(bytes: Uint8Array, valuePath: string): void {
  if (isGzip(bytes)) {
    let inflated: Buffer;
    try {
      inflated = gunzipSync(bytes, { maxOutputLength: MAX_SVG_BYTES });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
        throw svgTooLarge(valuePath);
      throw Errors.imageInvalid(valuePath, 'the compressed SVG (.svgz) is damaged or truncated.');
    }
    // Whatever was compressed must itself be a plain SVG; librsvg reads no other compressed image.
    if (!looksLikeMarkup(inflated))
      throw Errors.imageInvalid(
        valuePath,
        'the bytes are gzip-compressed but hold no SVG (only SVGs are read compressed, as .svgz); send the image uncompressed.',
      );
    assertSvgSelfContained(inflated, valuePath);
    return;
  }
  if (looksLikeMarkup(bytes)) assertSvgSelfContained(bytes, valuePath);
}

export function svgTooLarge(valuePath: string): AppError {
  return Errors.imageInvalid(
    valuePath,
    `the SVG is over ${MAX_SVG_BYTES / 1024 / 1024} MB; simplify it or send it as PNG or WebP.`,
  );
}

/**
 * An SVG that references files or URLs renders blank without an error (DESIGN §4a), and could
 * read local files: only in-document references (`#id`) and raster `data:` URIs are allowed; no
 * DOCTYPE internal subset (entities, XXE), no linked style sheets, no CSS `url()` or `@import`
 * that leaves the document. The document is read in one pass that expands no entities and
 * fetches nothing (see `scanMarkup`), so the time it takes grows with its size and nothing else.
 */
export function assertSvgSelfContained(svg: Uint8Array | string, valuePath: string): void {
  const size = typeof svg === 'string' ? Buffer.byteLength(svg, 'utf8') : svg.byteLength;
  if (size > MAX_SVG_BYTES) throw svgTooLarge(valuePath);
  const text = typeof svg === 'string' ? svg : decodeSvg(svg, valuePath);
  // UTF-16 or UCS-4 read as UTF-8 is full of NULs; libxml2 would read it in its own encoding.
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(text)) {
    throw Errors.imageInvalid(
      valuePath,
      'the SVG holds characters XML does not allow (is it UTF-16?); save it as UTF-8.',
    );
  }
  const refuse = (what: string) =>
    new AppError(
      'svg-external-reference',
      `${valuePath}: the SVG ${what}; embed images as data: URIs instead.`,
      { problems: [{ path: valuePath, message: `the SVG ${what}` }] },
    );
  const checkCss = (css: string) => {
    const found = externalCssReference(css);
    if (found?.kind === 'import') throw refuse('imports a style sheet');
    if (found?.kind === 'url') throw refuse(`references "${shorten(found.target)}"`);
  };
  try {
    scanMarkup(text, {
      xmlDeclaration(encoding) {
        if (encoding !== null && !ASCII_COMPATIBLE.test(encoding.trim())) {
          throw Errors.imageInvalid(
            valuePath,
            `the SVG declares the encoding ${shorten(encoding)}; save it as UTF-8.`,
          );
        }
      },
      doctype(hasInternalSubset) {
        // A plain DOCTYPE naming the SVG DTD is common and harmless (libxml2 loads no DTD); an
        // internal subset is how XXE and billion-laughs documents start.
        if (hasInternalSubset) {
          throw refuse('declares entities (a DOCTYPE with an internal subset)');
        }
      },
      processingInstruction(target) {
        if (target.toLowerCase() === 'xml-stylesheet') throw refuse('links a style sheet');
      },
      attribute(name, value) {
        // href in any namespace: librsvg matches xlink by namespace URI, not by prefix.
        const lower = name.toLowerCase();
        if ((lower === 'href' || lower.endsWith(':href')) && !isInternalReference(value)) {
          throw refuse(`references "${shorten(value)}"`);
        }
        checkCss(value);
      },
      characterData: checkCss,
    });
  } catch (error) {
    if (!(error instanceof MalformedMarkup)) throw error;
    throw Errors.imageInvalid(
      valuePath,
      `the SVG is not well-formed XML (${error.message}); SVG renderers refuse it.`,
    );
  }
}

/**
 * The document as text: UTF-8, or a single-byte encoding its declaration names (ISO-8859-1,
 * windows-1252, … read byte for byte: their ASCII is ASCII, all this check looks at). Bytes that
 * are neither (UTF-16 with a BOM, EBCDIC, Shift_JIS) are refused.
 */
function decodeSvg(bytes: Uint8Array, valuePath: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const head = Buffer.from(bytes.subarray(0, 256)).toString('latin1');
    const declared = /^<\?xml\s[^>]*\bencoding\s*=\s*["']([^"']*)["']/.exec(head)?.[1] ?? '';
    if (SINGLE_BYTE.test(declared)) return Buffer.from(bytes).toString('latin1');
    throw Errors.imageInvalid(valuePath, 'the SVG is not UTF-8 text; save it as UTF-8.');
  }
}

function shorten(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > 80 ? `${trimmed.slice(0, 80)}…` : trimmed;
}

/** The start of a URL as librsvg's URL parser sees it: without spaces and control characters. */
function urlHead(target: string): string {
  let head = '';
  for (let i = 0; i < target.length && head.length < 40; i++) {
    const c = target[i]!;
    if (c > ' ') head += c;
  }
  return head;
}

function isInternalReference(target: string): boolean {
  const head = urlHead(target);
  return head === '' || head.startsWith('#') || /^data:image\/(png|jpe?g|gif|webp)[;,]/i.test(head);
}

/**
 * The first thing in CSS text that reaches outside the document: an `@import`, or a `url()`
 * whose target is not internal; null when there is none.
 * One pass: each search starts where the previous one ended, so crafted input (`url(` a million
 * times, an unclosed quote) costs no more than its length.
 */
export function externalCssReference(
  css: string,
): { kind: 'import' } | { kind: 'url'; target: string } | null {
  if (!MAY_REACH_OUT.test(css)) return null;
  const text = css.includes('\\') ? decodeCssEscapes(css) : css;
  if (/@import/i.test(text)) return { kind: 'import' };
  const urlStart = /url\(/gi;
  for (;;) {
    const match = urlStart.exec(text);
    if (!match) return null;
    let start = match.index + 4;
    while (start < text.length && text.charCodeAt(start) <= 0x20) start++;
    const quote = text[start];
    const quoted = quote === '"' || quote === "'";
    const end = quoted ? text.indexOf(quote, start + 1) : text.indexOf(')', start);
    const target = text.slice(quoted ? start + 1 : start, end === -1 ? text.length : end);
    if (!isInternalReference(target)) return { kind: 'url', target };
    if (end === -1) return null;
    urlStart.lastIndex = end + 1;
  }
}

/**
 * CSS escapes resolved (`\\75 rl(` is `url(`, `\\40 import` is `@import`), as librsvg's CSS parser
 * reads them: a backslash and up to six hex digits (plus one space), or any other character.
 */
function decodeCssEscapes(css: string): string {
  const parts: string[] = [];
  let from = 0;
  for (let at = css.indexOf('\\'); at !== -1; at = css.indexOf('\\', from)) {
    parts.push(css.slice(from, at));
    let end = at + 1;
    while (end < css.length && end - at <= 6 && isHexDigit(css.charCodeAt(end))) end++;
    if (end > at + 1) {
      const cp = parseInt(css.slice(at + 1, end), 16);
      const valid = cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);
      parts.push(valid ? String.fromCodePoint(cp) : '\ufffd');
      if (/[ \t\n\r\f]/.test(css[end] ?? '')) end++;
    } else if (end < css.length && !/[\n\r\f]/.test(css[end]!)) {
      parts.push(css[end]!);
      end++;
    }
    from = end;
  }
  parts.push(css.slice(from));
  return parts.join('');
}

function isHexDigit(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x46) ||
    (code >= 0x61 && code <= 0x66)
  );
}
