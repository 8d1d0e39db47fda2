import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors.js';
import { jsonShape, MAX_JSON_DEPTH, MAX_JSON_OBJECT_KEYS } from '../../json/json-depth.js';

/**
 * JSON bodies go through Fastify's own parser (it refuses __proto__ and constructor.prototype
 * keys) after a linear check of their shape, so a body of 20,000 nested brackets is a 400
 * `json-too-deep` and an object of 300,000 keys a 400 `json-too-many-keys` wherever it is sent,
 * not a stack overflow or seconds of validation in whatever walks it later.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const shape = jsonShape(text);
    if (shape.depth > MAX_JSON_DEPTH) {
      done(
        new AppError(
          'json-too-deep',
          `The JSON body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep. Flatten it; no field of this API needs that many.`,
        ),
        undefined,
      );
      return;
    }
    if (shape.mostKeys > MAX_JSON_OBJECT_KEYS) {
      done(
        new AppError(
          'json-too-many-keys',
          `An object in the JSON body has more than ${MAX_JSON_OBJECT_KEYS.toLocaleString('en')} keys. No object of this API takes that many (a template has at most 100 variables, a batch record at most 1,000 columns); send only the keys it uses.`,
        ),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
