import type { ShapeLayer } from '../../../shared/template-format.js';
import type { DrawContext } from '../draw-context.js';
import { ellipsePath, resolvePaint, roundedRectPath } from '../paint.js';

/**
 * Rectangle (rounded), ellipse or line. Strokes are inset by half their width so they stay in the
 * box; a line runs along the box's longer axis through its centre, drawn with the stroke or, if
 * there is none, with the fill as thick as the box's shorter side.
 */
export function drawShapeLayer(dc: DrawContext, layer: ShapeLayer): void {
  const { ctx, values } = dc;
  const path = (inset: number) => {
    const box = {
      x: layer.x + inset,
      y: layer.y + inset,
      width: Math.max(0, layer.width - 2 * inset),
      height: Math.max(0, layer.height - 2 * inset),
    };
    if (layer.shape === 'ellipse') ellipsePath(ctx, box);
    else if (layer.shape === 'line') {
      // Along the box's longer axis, through its centre.
      ctx.beginPath();
      if (layer.width >= layer.height) {
        ctx.moveTo(layer.x, layer.y + layer.height / 2);
        ctx.lineTo(layer.x + layer.width, layer.y + layer.height / 2);
      } else {
        ctx.moveTo(layer.x + layer.width / 2, layer.y);
        ctx.lineTo(layer.x + layer.width / 2, layer.y + layer.height);
      }
    } else roundedRectPath(ctx, box, Math.max(0, layer.radius - inset));
  };
  if (layer.fill && layer.shape !== 'line') {
    const paint = resolvePaint(ctx, layer.fill, layer, values);
    if (paint) {
      ctx.fillStyle = paint;
      path(0);
      ctx.fill();
    }
  }
  if (layer.shape === 'line' && layer.fill && !layer.stroke) {
    const paint = resolvePaint(ctx, layer.fill, layer, values);
    if (paint) {
      ctx.strokeStyle = paint;
      ctx.lineWidth = Math.min(layer.width, layer.height);
      ctx.lineCap = 'butt';
      path(0);
      ctx.stroke();
    }
  }
  if (layer.stroke) {
    const paint = resolvePaint(ctx, layer.stroke.paint, layer, values);
    if (paint) {
      ctx.strokeStyle = paint;
      ctx.lineWidth = layer.stroke.width;
      ctx.lineCap = 'butt';
      ctx.setLineDash(layer.stroke.dash ?? []);
      path(layer.shape === 'line' ? 0 : layer.stroke.width / 2);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}
