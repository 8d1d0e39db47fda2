/** A batch request's limits (plain numbers: the UI imports them without the schemas). */

/** A serial's number stays an exact integer (beyond 2^53 a step would skip or repeat). */
export const MAX_SERIAL = Number.MAX_SAFE_INTEGER;
export const MAX_SERIAL_PAD = 20;
export const MAX_SERIAL_AFFIX = 40;

/** A batch of an upload's chosen rows (`source.rows`) names at most this many. */
export const MAX_SOURCE_ROWS = 100_000;
