import { pipeline, Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ImageUrlFailure } from './image-url-failure.js';

/** What the fetcher asks for: each of these it decodes (see `decodedBody`). */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/** More codings than this on one body is no server's honest answer. */
const MAX_CODINGS = 2;

export interface DecodedBody {
  /** The image's bytes, decoded as they arrive. */
  stream: Readable;
  /** What an error of `stream` means: damaged compressed data, or else the error itself. */
  failure(error: Error): Error;
}

/**
 * The body of a response with its Content-Encoding undone, so that what is checked, sized and
 * decoded is the image itself. Compressed bytes handed on as they came would be read by sharp as
 * a gzip-compressed SVG (librsvg inflates gzip), so a gzipped PNG or page was refused as an SVG.
 * Decoders stream: the caller's byte limit applies to what they produce, so a small compressed
 * body that inflates past it is stopped there. An unknown coding is `image-url-not-an-image`.
 */
export function decodedBody(
  response: Readable,
  contentEncoding: string | undefined,
  url: string,
): DecodedBody {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0) return { stream: response, failure: (error) => error };
  if (codings.length > MAX_CODINGS)
    throw new ImageUrlFailure(
      'image-url-not-an-image',
      `${url} is sent with ${codings.length} content codings (${shown(contentEncoding)}); serve the image uncompressed or with one of gzip, deflate or br.`,
    );
  // Applied in the order listed, so undone from the last.
  const decoders = [...codings].reverse().map((coding) => {
    const decoder = decoderFor(coding);
    if (!decoder)
      throw new ImageUrlFailure(
        'image-url-not-an-image',
        `${url} is sent with Content-Encoding ${shown(coding)}, which Render Desk does not decode; serve the image uncompressed or with gzip, deflate or br.`,
      );
    return decoder;
  });
  let damaged = false;
  // A decoder's own error comes first; pipeline() then destroys the rest with it.
  for (const decoder of decoders) decoder.once('error', () => (damaged = true));
  pipeline([response, ...decoders], () => {
    // Errors reach the caller through the last decoder, which pipeline() destroys with them.
  });
  return {
    stream: decoders[decoders.length - 1]!,
    failure: (error) =>
      damaged
        ? new ImageUrlFailure(
            'image-url-not-an-image',
            `${url} is sent ${codings.join(', ')}-compressed, but the compressed data is damaged or truncated.`,
          )
        : error,
  };
}

function decoderFor(coding: string): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return deflateDecoder();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/**
 * `deflate` is zlib-wrapped by the standard, but some servers send raw deflate: the first byte
 * tells them apart (a zlib header's low nibble is 8, the deflate method), as browsers do.
 */
function deflateDecoder(): Transform {
  let inner: zlib.Inflate | zlib.InflateRaw | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (!inner) {
        if (chunk.length === 0) return done();
        inner = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate() : zlib.createInflateRaw();
        inner.on('data', (data: Buffer) => this.push(data));
        inner.on('error', (error) => this.destroy(error));
      }
      inner.write(chunk, () => done());
    },
    flush(done) {
      if (!inner) return done();
      inner.once('end', () => done());
      inner.end();
    },
  });
}

function shown(value: string | undefined): string {
  return JSON.stringify((value ?? '').slice(0, 40));
}
