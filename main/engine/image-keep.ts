import type { SourceWindow } from '../../shared/keep-window.js';

/**
 * A cut of a source image and where it is drawn, as drawImage takes them: source pixels (s*)
 * into the canvas rectangle (d*).
 */
export interface ImagePlacement {
  sx: number;
  sy: number;
  sw: number;
  sh: number;
  dx: number;
  dy: number;
  dw: number;
  dh: number;
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
): ImagePlacement {
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
