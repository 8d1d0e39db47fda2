import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors.js';
import {
  jsonShape,
  MAX_JSON_ARRAY_ITEMS,
  MAX_JSON_DEPTH,
  MAX_JSON_OBJECT_KEYS,
  MAX_JSON_VALUES,
} from '../../json/json-depth.js';

/**
 * JSON bodies go through Fastify's own parser (it refuses __proto__ and constructor.prototype
 * keys) after a linear check of their shape, so a body of 20,000 nested brackets is a 400
 * `json-too-deep` and an object of 300,000 keys a 400 `json-too-many-keys` wherever it is sent,
 * not a stack overflow or seconds of validation in whatever walks it later. Millions of tiny
 * values (ten million `{}` fit in a batch's 32 MiB) are a 413 before JSON.parse, which would
 * hold the API thread for seconds; the scan stops at the value that crosses the limit.
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
    if (shape.mostItems > MAX_JSON_ARRAY_ITEMS || shape.values > MAX_JSON_VALUES) {
      const what =
        shape.mostItems > MAX_JSON_ARRAY_ITEMS
          ? `an array of more than ${MAX_JSON_ARRAY_ITEMS.toLocaleString('en')} items`
          : `more than ${MAX_JSON_VALUES.toLocaleString('en')} values`;
      done(
        new AppError(
          'payload-too-large',
          `The JSON body holds ${what}, more than any request of this API takes (a batch has at most 50,000 inline records). For more rows, upload a CSV or XLSX file (POST /v1/uploads) and start the batch from its sourceRef.`,
        ),
        undefined,
      );
      return;
    }
    parse(request, text, done);
  });
}
