import type { KeepBox } from '../../shared/template-format.js';

/** A part of a source image in its pixels; it may reach beyond the image (then nothing shows). */
export interface SourceWindow {
  x: number;
  y: number;
  width: number;
  height: number;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * The part of a `srcW × srcH` image a `boxW × boxH` frame shows when it must keep `keep` (the
 * subject, in fractions of the image) whole: the cover crop when the subject fits in it, placed
 * on the focal point as far as the subject allows; otherwise the smallest window of the frame's
 * shape around the subject, so the image is drawn smaller and the frame's background shows
 * where it does not reach.
 */
export function keepWindow(
  srcW: number,
  srcH: number,
  boxW: number,
  boxH: number,
  focalPoint: { x: number; y: number },
  keep: KeepBox,
): SourceWindow {
  const kx = keep.x * srcW;
  const ky = keep.y * srcH;
  const kw = Math.min(keep.width, 1 - keep.x) * srcW;
  const kh = Math.min(keep.height, 1 - keep.y) * srcH;
  const cover = Math.max(boxW / srcW, boxH / srcH);
  let width = boxW / cover;
  let height = boxH / cover;
  if (kw > width + 1e-6 || kh > height + 1e-6) {
    width = Math.max(kw, (kh * boxW) / boxH);
    height = (width * boxH) / boxW;
  }
  const along = (focal: number, size: number, src: number, k: number, kSize: number) => {
    const wanted = focal * src - size / 2;
    const inImage = size <= src ? clamp(wanted, 0, src - size) : (src - size) / 2;
    return clamp(inImage, k + kSize - size, k);
  };
  return {
    x: along(focalPoint.x, width, srcW, kx, kw),
    y: along(focalPoint.y, height, srcH, ky, kh),
    width,
    height,
  };
}

/**
 * Where a window of the image lands in a frame at `box`: the part of the window inside the image
 * (source pixels s*) and where it is drawn (d*).
 */
export function windowPlacement(
  srcW: number,
  srcH: number,
  window: SourceWindow,
  box: { x: number; y: number; width: number; height: number },
): {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
  dx: number;
  dy: number;
  dw: number;
  dh: number;
} {
  const scale = box.width / window.width;
  const sx = Math.max(0, window.x);
  const sy = Math.max(0, window.y);
  const sw = Math.min(srcW, window.x + window.width) - sx;
  const sh = Math.min(srcH, window.y + window.height) - sy;
  return {
    sx,
    sy,
    sw,
    sh,
    dx: box.x + (sx - window.x) * scale,
    dy: box.y + (sy - window.y) * scale,
    dw: sw * scale,
    dh: sh * scale,
  };
}
