/**
 * How deeply a JSON document may nest. Our own documents (templates, batch records) need fewer
 * than 15 levels; JSON.parse copes with any depth, but every recursive walk after it (zod, the
 * idempotency fingerprint, row mapping) overflows the stack somewhere past a few thousand, which
 * surfaced as 500s.
 */
export const MAX_JSON_DEPTH = 64;

/**
 * How many keys one JSON object may have. No object of this API needs more than a batch record
 * (a row of at most 1,000 columns); a template has at most 100 variables. A values object of
 * 300,000 keys (5 MB) held the API thread for 2–6 s (validation, the idempotency fingerprint)
 * and its 422 listed 300,000 problems.
 */
export const MAX_JSON_OBJECT_KEYS = 1_000;

/**
 * How many items one JSON array may have: the longest list of this API is an upload's chosen
 * rows (100,000); inline batch records are at most 50,000. 31 MiB of empty records (ten million
 * `{}`) held the API thread ~8 s in JSON.parse and validation before the 422.
 */
export const MAX_JSON_ARRAY_ITEMS = 100_000;

/**
 * How many values (items and key/value pairs) a whole JSON body may hold: 50,000 records of 100
 * columns. Arrays each under their limit can still nest millions of values into 32 MiB.
 */
export const MAX_JSON_VALUES = 5_000_000;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;

export interface JsonShape {
  /** The deepest nesting of objects and arrays, counted no further than the depth limit + 1. */
  depth: number;
  /** The most keys of one object, counted no further than the keys limit + 1. */
  mostKeys: number;
  /** The most items of one array, counted no further than the items limit + 1. */
  mostItems: number;
  /** Items and key/value pairs of the whole document, counted no further than its limit + 1. */
  values: number;
}

export interface JsonLimits {
  depth: number;
  keys: number;
  items: number;
  values: number;
}

export const JSON_LIMITS: JsonLimits = {
  depth: MAX_JSON_DEPTH,
  keys: MAX_JSON_OBJECT_KEYS,
  items: MAX_JSON_ARRAY_ITEMS,
  values: MAX_JSON_VALUES,
};

/**
 * The nesting depth, the most keys of one object, the most items of one array and the values
 * of `text`, in one linear pass that skips strings and stops as soon as any limit is crossed.
 * It does not validate (JSON.parse does that next); an object's keys and an array's items are
 * counted by the commas directly inside it.
 */
export function jsonShape(text: string, limits: JsonLimits = JSON_LIMITS): JsonShape {
  // Per open level (at most limits.depth + 1 of them): items or keys so far (1 from the first).
  const counts: number[] = [];
  const isArray: boolean[] = [];
  let depth = 0;
  const shape: JsonShape = { depth: 0, mostKeys: 0, mostItems: 0, values: 0 };
  const crossed = () =>
    shape.depth > limits.depth ||
    shape.mostKeys > limits.keys ||
    shape.mostItems > limits.items ||
    shape.values > limits.values;
  /** A value or key/value pair begins directly inside the innermost open level. */
  const counted = (count: number): boolean => {
    const level = depth - 1;
    counts[level] = count;
    if (isArray[level]) shape.mostItems = Math.max(shape.mostItems, count);
    else shape.mostKeys = Math.max(shape.mostKeys, count);
    shape.values += 1;
    return crossed();
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (depth > 0 && counts[depth - 1] === 0 && counted(1)) return shape;
      i = closingQuote(text, i);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      // An array's first item (here, a container): it counts as it opens.
      if (depth > 0 && counts[depth - 1] === 0 && counted(1)) return shape;
      counts[depth] = 0;
      isArray[depth] = c === OPEN_BRACKET;
      depth += 1;
      if (depth > shape.depth) {
        shape.depth = depth;
        if (crossed()) return shape;
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth > 0) depth -= 1;
    } else if (c === COMMA) {
      if (depth > 0 && counted((counts[depth - 1] ?? 0) + 1)) return shape;
    } else if (depth > 0 && counts[depth - 1] === 0 && !isWhitespace(c) && counted(1)) {
      // An array's first item that is a number, true, false or null.
      return shape;
    }
  }
  return shape;
}

/** The index of the quote that closes the string opened at `open` (or the text's end). */
function closingQuote(text: string, open: number): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    // Escaped by an odd run of backslashes before it.
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return at;
  }
  return text.length;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The deepest nesting of objects and arrays in `text`, counting no further than `limit + 1`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  const unbounded = Number.POSITIVE_INFINITY;
  return jsonShape(text, { depth: limit, keys: unbounded, items: unbounded, values: unbounded })
    .depth;
}
