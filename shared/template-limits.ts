/**
 * A template's limits, which the schema enforces and the engine and the UI check against. Plain
 * numbers, apart from the schema (template-format.ts): the render threads and the UI import them
 * without the schema library.
 */

/** Print sizes fit (A4 at 300 dpi is 3508 px); a larger canvas would only exhaust memory. */
export const MAX_CANVAS_SIDE = 5000;

/** A layout has at most this many pages, its own (page 1) and `morePages`. */
export const MAX_PAGES = 50;

/** A rule nests `all` / `any` groups at most this deep (a condition alone is depth 0). */
export const VISIBILITY_MAX_DEPTH = 4;
/** A rule holds at most this many conditions, however grouped; a group at most this many rules. */
export const VISIBILITY_MAX_CONDITIONS = 32;
/** An `in` list holds at most this many values. */
export const VISIBILITY_MAX_LIST = 100;
