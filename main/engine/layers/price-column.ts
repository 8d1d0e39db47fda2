import type { SKRSContext2D } from '@napi-rs/canvas';
import type { PriceColumn } from '../../../shared/template-format.js';
import { measure } from '../fit-text.js';

/** A list item split into its name and its price. */
export interface PricedItem {
  name: string;
  price: string;
}

/**
 * Splits an item at the column's last separator. An item without one, or with nothing on one
 * side of it, stays whole (null): it is drawn as an ordinary item.
 */
export function splitPrice(item: string, column: PriceColumn): PricedItem | null {
  const at = item.lastIndexOf(column.separator);
  if (at < 0) return null;
  const name = item.slice(0, at).trim();
  const price = item.slice(at + column.separator.length).trim();
  return name && price ? { name, price } : null;
}

/** A price wider than this share of the item's width is no column: the item stays whole. */
const MAX_PRICE_SHARE = 0.5;

/** Space between the name and the price, in ems: the leaders' clearance on both sides. */
const CLEARANCE_EM = 0.35;
/** Distance from one leader dot to the next, in ems. */
const DOT_PITCH_EM = 0.42;

/**
 * The width the name may wrap in beside a price of `priceWidth`, or null when the price takes
 * too much of the item for a column. The name always keeps a clearance from the price.
 */
export function nameWidthBeside(priceWidth: number, itemWidth: number, size: number) {
  if (priceWidth > itemWidth * MAX_PRICE_SHARE) return null;
  return itemWidth - priceWidth - 2 * CLEARANCE_EM * size;
}

/**
 * Dot leaders on `baseline` between the end of a name (`fromX`) and the start of its price
 * (`toX`), each with the clearance kept. The dots sit on a grid counted from the column's right
 * edge, so they line up from one item to the next. The font and fill must be applied.
 */
export function drawDotLeaders(
  ctx: SKRSContext2D,
  fromX: number,
  toX: number,
  columnRight: number,
  baseline: number,
  size: number,
): void {
  const clearance = CLEARANCE_EM * size;
  const pitch = DOT_PITCH_EM * size;
  const dot = measure(ctx, '.', 0);
  const first = fromX + clearance;
  const last = toX - clearance - dot;
  if (last < first) return;
  // The rightmost grid position at or left of `last`, then leftwards while past the name.
  for (
    let x = columnRight - Math.ceil((columnRight - last) / pitch) * pitch;
    x >= first;
    x -= pitch
  )
    ctx.fillText('.', x, baseline);
}
