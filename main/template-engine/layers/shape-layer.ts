import type { ShapeLayer } from '../../../shared/template-format.js';
import type { DrawContext } from '../draw-context.js';
import { resolvePaint, roundedRectPath } from '../paint.js';

export function drawShapeLayer(dc: DrawContext, layer: ShapeLayer): void {
  const { ctx, values } = dc;
  const path = () => {
    ctx.beginPath();
    if (layer.shape === 'ellipse') {
      ctx.ellipse(
        layer.x + layer.width / 2,
        layer.y + layer.height / 2,
        layer.width / 2,
        layer.height / 2,
        0,
        0,
        Math.PI * 2,
      );
    } else if (layer.shape === 'line') {
      // Along the box's longer axis, through its centre.
      if (layer.width >= layer.height) {
        ctx.moveTo(layer.x, layer.y + layer.height / 2);
        ctx.lineTo(layer.x + layer.width, layer.y + layer.height / 2);
      } else {
        ctx.moveTo(layer.x + layer.width / 2, layer.y);
        ctx.lineTo(layer.x + layer.width / 2, layer.y + layer.height);
      }
    } else roundedRectPath(ctx, layer, layer.radius);
  };
  if (layer.fill && layer.shape !== 'line') {
    const paint = resolvePaint(ctx, layer.fill, layer, values);
    if (paint) {
      ctx.fillStyle = paint;
      path();
      ctx.fill();
    }
  }
  if (layer.stroke) {
    const paint = resolvePaint(ctx, layer.stroke.paint, layer, values);
    if (paint) {
      ctx.strokeStyle = paint;
      ctx.lineWidth = layer.stroke.width;
      ctx.lineCap = 'round';
      ctx.setLineDash(layer.stroke.dash ?? []);
      path();
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}
