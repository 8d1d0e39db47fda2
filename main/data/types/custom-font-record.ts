import type { CustomFont } from '../../../shared/font-schemas.js';
import type { CoverageRanges } from '../../engine/font-coverage.js';

/** A stored custom font: the API's shape plus what the engine needs (file, coverage). */
export interface CustomFontRecord extends CustomFont {
  /** The file's name inside `<dataDir>/fonts/` (`<sha256>.<ext>`). */
  fileName: string;
  coverage: CoverageRanges;
}
