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
}

/**
 * The nesting depth and the most keys of one object in `text`, in one linear pass that skips
 * strings and stops as soon as either limit is crossed. It does not validate (JSON.parse does
 * that next); an object's keys are counted by the commas directly inside it.
 */
export function jsonShape(
  text: string,
  limits: { depth: number; keys: number } = {
    depth: MAX_JSON_DEPTH,
    keys: MAX_JSON_OBJECT_KEYS,
  },
): JsonShape {
  // Per open level (at most limits.depth + 1 of them): an object's keys so far, or -1 for an array.
  const keys: number[] = [];
  let depth = 0;
  let deepest = 0;
  let mostKeys = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i += 1;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
      // The first key of an object: its opening quote.
      if (depth > 0 && keys[depth - 1] === 0) {
        keys[depth - 1] = 1;
        if (mostKeys === 0) mostKeys = 1;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      keys[depth] = c === OPEN_BRACE ? 0 : -1;
      depth += 1;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limits.depth) return { depth: deepest, mostKeys };
      }
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth > 0) depth -= 1;
    } else if (c === COMMA && depth > 0) {
      const count = keys[depth - 1] ?? -1;
      if (count >= 0) {
        keys[depth - 1] = count + 1;
        if (count + 1 > mostKeys) {
          mostKeys = count + 1;
          if (mostKeys > limits.keys) return { depth: deepest, mostKeys };
        }
      }
    }
  }
  return { depth: deepest, mostKeys };
}

/** The deepest nesting of objects and arrays in `text`, counting no further than `limit + 1`. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  return jsonShape(text, { depth: limit, keys: Number.POSITIVE_INFINITY }).depth;
}
