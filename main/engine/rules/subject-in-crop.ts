import type { Rule } from './rule-types.js';

/**
 * An image with a known subject (a keep-box) shows all of it: the part of the source the frame
 * shows contains the box, and a round frame's corners do not cut it.
 */
export const subjectInCrop: Rule = (page) =>
  page.layers.flatMap((layer) => {
    if (layer.kind !== 'image') return [];
    const prepared = page.images.get(layer.id);
    const crop = prepared?.crop;
    if (!crop?.keep) return [];
    const { shown, keep } = crop;
    const slack = 0.002;
    let inside =
      keep.x >= shown.x - slack &&
      keep.y >= shown.y - slack &&
      keep.x + keep.width <= shown.x + shown.width + slack &&
      keep.y + keep.height <= shown.y + shown.height + slack;
    if (inside && layer.circle) {
      // The box's corners, in the frame's unit circle.
      const corners = [
        [keep.x, keep.y],
        [keep.x + keep.width, keep.y],
        [keep.x, keep.y + keep.height],
        [keep.x + keep.width, keep.y + keep.height],
      ] as const;
      inside = corners.every(([cx, cy]) => {
        const u = ((cx - shown.x) / shown.width) * 2 - 1;
        const v = ((cy - shown.y) / shown.height) * 2 - 1;
        return u * u + v * v <= 1 + slack;
      });
    }
    if (inside) return [];
    return [
      {
        rule: 'subject-cropped' as const,
        layer: layer.id,
        page: page.page,
        message: `"${layer.id}" cuts part of its subject (keep ${fmt(keep)} of the image; the frame shows ${fmt(shown)}). Make the keep-box smaller, the frame closer to the image's shape, or the frame square instead of round.`,
      },
    ];
  });

const fmt = (b: { x: number; y: number; width: number; height: number }) =>
  `x ${b.x.toFixed(2)}–${(b.x + b.width).toFixed(2)}, y ${b.y.toFixed(2)}–${(b.y + b.height).toFixed(2)}`;
