import type { KeepBox } from './template-format.js';

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
