import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors.js';
import { jsonDepth, MAX_JSON_DEPTH } from '../../json/json-depth.js';

/**
 * JSON bodies go through Fastify's own parser (it refuses __proto__ and constructor.prototype
 * keys) after a linear check of their depth, so a body of 20,000 nested brackets is a 400
 * `json-too-deep` wherever it is sent, not a stack overflow in whatever walks it later.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      done(
        new AppError(
          'json-too-deep',
          `The JSON body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep. Flatten it; no field of this API needs that many.`,
        ),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
