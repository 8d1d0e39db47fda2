/**
 * A one-pass reader of XML markup for checks that must see what libxml2 sees: attribute values
 * and character data with references resolved, processing instructions, the DOCTYPE. It expands
 * no entities beyond XML's five and character references, fetches nothing, and keeps no tree.
 * Every search starts where the previous one ended, so crafted input (a million unclosed
 * `<image`, quotes that never close) costs no more than its length. It checks the grammar of
 * tags, references and declarations strictly: where a document is not well-formed libxml2 stops
 * too, and a lenient reading could see other attributes than libxml2 does.
 */

export interface MarkupVisitor {
  /** The XML declaration's encoding (null when it names none). */
  xmlDeclaration(encoding: string | null): void;
  doctype(hasInternalSubset: boolean): void;
  processingInstruction(target: string): void;
  attribute(name: string, value: string): void;
  /**
   * An element's character data between two tags: text and CDATA sections joined, comments and
   * processing instructions skipped, as a `<style>` element's content is read.
   */
  characterData(text: string): void;
}

/** The document is not well-formed XML; the message says where and why. */
export class MalformedMarkup extends Error {
  override name = 'MalformedMarkup';
}

const PREDEFINED: Readonly<Record<string, string>> = Object.assign(Object.create(null), {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
});
const DIGIT = /[0-9]/;
const HEX_DIGIT = /[0-9a-fA-F]/;
const NAME_CHAR = /[\p{L}\p{N}_.:-]/u;

/** The XML declaration is a few dozen characters; a longer one is not one libxml2 reads. */
const MAX_DECLARATION_LENGTH = 256;

export function scanMarkup(doc: string, visitor: MarkupVisitor): void {
  const start = doc.charCodeAt(0) === 0xfeff ? 1 : 0;
  let i = start;
  let data = '';
  const flush = () => {
    if (data !== '') visitor.characterData(data);
    data = '';
  };
  const fail = (at: number, why: string): never => {
    throw new MalformedMarkup(`${why} at ${position(doc, at)}`);
  };

  while (i < doc.length) {
    const lt = doc.indexOf('<', i);
    const textEnd = lt === -1 ? doc.length : lt;
    if (textEnd > i) data += resolveReferences(doc, i, textEnd, fail);
    if (lt === -1) break;
    const next = doc[lt + 1];
    if (doc.startsWith('<!--', lt)) {
      i = after(doc, '-->', lt + 4, () => fail(lt, 'a comment is not closed'));
    } else if (doc.startsWith('<![CDATA[', lt)) {
      const end = doc.indexOf(']]>', lt + 9);
      if (end === -1) fail(lt, 'a CDATA section is not closed');
      data += doc.slice(lt + 9, end);
      i = end + 3;
    } else if (doc.startsWith('<!DOCTYPE', lt)) {
      i = doctype(doc, lt, visitor, fail);
    } else if (next === '!') {
      fail(lt, 'markup declarations belong in a DOCTYPE');
    } else if (next === '?') {
      i = processingInstruction(doc, lt, lt === start, visitor, fail);
    } else if (next === '/') {
      flush();
      i = after(doc, '>', lt + 2, () => fail(lt, 'an end tag is not closed'));
    } else {
      flush();
      i = startTag(doc, lt, visitor, fail);
    }
  }
  flush();
}

type Fail = (at: number, why: string) => never;

function after(doc: string, token: string, from: number, missing: () => never): number {
  const at = doc.indexOf(token, from);
  return at === -1 ? missing() : at + token.length;
}

function isSpace(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function skipSpaces(doc: string, i: number): number {
  while (isSpace(doc[i])) i++;
  return i;
}

/** A name ends at a space, `=`, `/`, `>` or the end; quotes, `<` and `&` cannot be in one. */
function nameEnd(doc: string, i: number, fail: Fail): number {
  const begin = i;
  for (; i < doc.length; i++) {
    const c = doc[i];
    if (isSpace(c) || c === '=' || c === '/' || c === '>') break;
    if (c === '<' || c === '"' || c === "'" || c === '&')
      fail(i, `"${c}" cannot be part of a name`);
  }
  if (i === begin) fail(begin, 'a name is missing');
  return i;
}

function startTag(doc: string, lt: number, visitor: MarkupVisitor, fail: Fail): number {
  let i = nameEnd(doc, lt + 1, fail);
  for (;;) {
    const spaced = isSpace(doc[i]);
    i = skipSpaces(doc, i);
    const c = doc[i];
    if (c === '>') return i + 1;
    if (c === '/') return doc[i + 1] === '>' ? i + 2 : fail(i, 'a "/" inside a tag');
    if (c === undefined) fail(lt, 'a tag is not closed');
    if (!spaced) fail(i, 'attributes must be separated by spaces');
    const nameStart = i;
    i = nameEnd(doc, i, fail);
    const name = doc.slice(nameStart, i);
    i = skipSpaces(doc, i);
    if (doc[i] !== '=') fail(i, `the attribute ${name} has no value`);
    i = skipSpaces(doc, i + 1);
    const quote = doc[i];
    if (quote !== '"' && quote !== "'") fail(i, `the value of ${name} is not in quotes`);
    const end = doc.indexOf(quote!, i + 1);
    if (end === -1) fail(i, `the value of ${name} is not closed`);
    const lessThan = doc.slice(i + 1, end).indexOf('<');
    if (lessThan !== -1) fail(i + 1 + lessThan, `a "<" in the value of ${name}`);
    visitor.attribute(name, resolveReferences(doc, i + 1, end, fail));
    i = end + 1;
  }
}

function doctype(doc: string, lt: number, visitor: MarkupVisitor, fail: Fail): number {
  for (let i = lt + 9; i < doc.length; i++) {
    const c = doc[i];
    if (c === '"' || c === "'") {
      const end = doc.indexOf(c, i + 1);
      if (end === -1) fail(i, 'a quoted DOCTYPE identifier is not closed');
      i = end;
    } else if (c === '[') {
      // The internal subset is where entities are declared: the visitor decides; nothing past it
      // is read, since its grammar is DTD, not markup.
      visitor.doctype(true);
      return fail(i, 'a DOCTYPE internal subset');
    } else if (c === '>') {
      visitor.doctype(false);
      return i + 1;
    }
  }
  return fail(lt, 'the DOCTYPE is not closed');
}

function processingInstruction(
  doc: string,
  lt: number,
  atStart: boolean,
  visitor: MarkupVisitor,
  fail: Fail,
): number {
  const end = doc.indexOf('?>', lt + 2);
  if (end === -1) fail(lt, 'a processing instruction is not closed');
  let targetEnd = lt + 2;
  while (targetEnd < end && !isSpace(doc[targetEnd])) targetEnd++;
  const target = doc.slice(lt + 2, targetEnd);
  if (target === '') fail(lt, 'a processing instruction has no target');
  if (target.toLowerCase() === 'xml') {
    if (!atStart || target !== 'xml') fail(lt, 'an XML declaration not at the very start');
    const body = doc.slice(targetEnd, end);
    if (body.length > MAX_DECLARATION_LENGTH) fail(lt, 'an XML declaration this long');
    const encoding = /\bencoding\s*=\s*(["'])([^"']*)\1/.exec(body);
    visitor.xmlDeclaration(encoding ? (encoding[2] ?? '') : null);
  } else {
    visitor.processingInstruction(target);
  }
  return end + 2;
}

/**
 * `doc[from, to)` with `&amp;`-style and character references resolved, as libxml2 resolves
 * them. Any other entity, a bare `&` or a reference to a character XML forbids is not
 * well-formed here (no internal subset declares entities: the visitor refuses those).
 */
function resolveReferences(doc: string, from: number, to: number, fail: Fail): string {
  // Searched within the range: a search running on past it would make many short ranges
  // quadratic.
  const text = doc.slice(from, to);
  let amp = text.indexOf('&');
  if (amp === -1) return text;
  const parts: string[] = [];
  let i = 0;
  while (amp !== -1) {
    parts.push(text.slice(i, amp));
    let j = amp + 1;
    if (text[j] === '#') {
      const hex = text[j + 1] === 'x';
      j += hex ? 2 : 1;
      const digitsStart = j;
      while (j < text.length && (hex ? HEX_DIGIT : DIGIT).test(text[j]!)) j++;
      if (j === digitsStart || text[j] !== ';') fail(from + amp, 'a malformed character reference');
      const code = parseInt(text.slice(digitsStart, j), hex ? 16 : 10);
      if (!isXmlChar(code)) fail(from + amp, 'a reference to a character XML does not allow');
      parts.push(String.fromCodePoint(code));
    } else {
      while (j < text.length && NAME_CHAR.test(text[j]!)) j++;
      const name = text.slice(amp + 1, j);
      if (name === '' || text[j] !== ';') fail(from + amp, 'a "&" that starts no reference');
      const resolved = PREDEFINED[name];
      if (resolved === undefined)
        fail(from + amp, `the entity &${name}; which no DTD here declares`);
      parts.push(resolved!);
    }
    i = j + 1;
    amp = text.indexOf('&', i);
  }
  parts.push(text.slice(i));
  return parts.join('');
}

function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

/** "line 3, column 14" of an offset, for messages (computed only on failure). */
function position(doc: string, at: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = doc.indexOf('\n'); i !== -1 && i < at; i = doc.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${at - lineStart + 1}`;
}
