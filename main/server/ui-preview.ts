import type { FastifyReply, FastifyRequest } from 'fastify';
import { DRAWN_BOXES_HEADER } from '../../shared/drawn-boxes.js';
import { AppError } from '../../shared/errors.js';
import type { RenderSuccess } from '../render/render-protocol.js';
import { UI_SESSION_PRINCIPAL } from './ui-sessions.js';

/** Previews are free, so only the desktop UI's session may ask for them. */
export function requireUiSession(request: FastifyRequest): void {
  if (request.principal?.id !== UI_SESSION_PRINCIPAL) {
    throw new AppError(
      'forbidden',
      'Previews are for the desktop UI; scripts use POST /v1/render.',
    );
  }
}

/**
 * A preview answer: the JPEG, never cached, the layers whose text had to be cut, and where each
 * layer was drawn (the editor outlines and picks a stack's children by them).
 */
export function sendPreview(reply: FastifyReply, result: RenderSuccess): FastifyReply {
  const cut = result.report.layers.filter((l) => l.truncated || l.overflow).map((l) => l.id);
  return reply
    .header('Cache-Control', 'no-store')
    .header('x-preview-layers', JSON.stringify(cut))
    .header(DRAWN_BOXES_HEADER, JSON.stringify(result.report.boxes ?? []))
    .type('image/jpeg')
    .send(Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength));
}
