/**
 * Where the engine drew each layer of a page, in the layout's trim pixels: a stack's children
 * where the stack laid them out, a text box as tight as its fitted lines. The editor's preview
 * gets them beside the image so it can outline and pick layers inside stacks without laying the
 * stack out again itself.
 */
export interface DrawnBox {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  /** Degrees about the box's centre (a turned stack turns its children). */
  rotation?: number;
}

/** The preview response header holding the page's drawn boxes as JSON. */
export const DRAWN_BOXES_HEADER = 'x-preview-boxes';

/** Tenths of a pixel are plenty to outline on screen, and keep the header short. */
const round = (value: number) => Math.round(value * 10) / 10;

/** The boxes of drawn layers, rounded for the header. */
export function drawnBoxesOf(
  layers: readonly {
    id: string;
    x: number;
    y: number;
    width: number;
    height: number;
    rotation?: number | undefined;
  }[],
): DrawnBox[] {
  return layers.map((layer) => ({
    id: layer.id,
    x: round(layer.x),
    y: round(layer.y),
    width: round(layer.width),
    height: round(layer.height),
    ...(layer.rotation ? { rotation: round(layer.rotation) } : {}),
  }));
}

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** The boxes a header holds; nothing for a missing or malformed one (an older server). */
export function parseDrawnBoxes(header: string | null): DrawnBox[] {
  if (!header) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((item: unknown) => {
    const box = item as Partial<Record<keyof DrawnBox, unknown>> | null;
    if (
      !box ||
      typeof box.id !== 'string' ||
      !isNumber(box.x) ||
      !isNumber(box.y) ||
      !isNumber(box.width) ||
      !isNumber(box.height)
    )
      return [];
    return [
      {
        id: box.id,
        x: box.x,
        y: box.y,
        width: box.width,
        height: box.height,
        ...(isNumber(box.rotation) && box.rotation !== 0 ? { rotation: box.rotation } : {}),
      },
    ];
  });
}
