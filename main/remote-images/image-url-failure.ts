import { AppError } from '../../shared/errors.js';

/** Why an image URL could not be used; each is an error code of the catalogue (docs/errors.md). */
export type ImageUrlFailureCode =
  | 'image-url-refused'
  | 'image-url-unreachable'
  | 'image-url-too-large'
  | 'image-url-not-an-image'
  | 'image-url-timeout';

/** A failed image URL, before it is tied to the value that named it. */
export class ImageUrlFailure extends Error {
  constructor(
    readonly code: ImageUrlFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImageUrlFailure';
  }

  /** The 422 (or batch row failure) of the value at `valuePath`, its code in the problem too. */
  at(valuePath: string): AppError {
    return new AppError(this.code, `${valuePath}: ${this.message}`, {
      problems: [{ path: valuePath, message: this.message, code: this.code }],
    });
  }
}
