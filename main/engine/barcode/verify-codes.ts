import type { Problem } from '../../../shared/errors.js';
import type { Template } from '../../../shared/template-format.js';
import type { Box } from './barcode-placement.js';
import { quote } from './barcode-value.js';
import type { CodePixels } from './code-pixels.js';
import { readCodes } from './code-reader.js';
import { codeValuePath } from './code-value-path.js';
import { readArea, type DrawnCode } from './drawn-code.js';

/**
 * Reads every code drawn on one page back from the pixels, cut out around each, and returns a
 * `code-unreadable` problem for each that a reader cannot find or that scans as other text than
 * its value. An empty list: every code scans as it should.
 */
export async function unreadableCodes(
  pixels: CodePixels,
  codes: readonly DrawnCode[],
  where: { template: Template; page: number; pages: number },
): Promise<Problem[]> {
  const problems: Problem[] = [];
  for (const code of codes) {
    // Most codes scan: read as drawn first (the code's own box, quiet zone included), which is
    // quick; a code that does not read so is searched for by the careful reader, whose verdict
    // stands. Only an exact reading passes, so the quick way can pass no code that does not scan.
    const drawn = await readCodes(pixels.crop(inside(code.box)), code.format, { pure: true });
    if (drawn.some((result) => result.text === code.expected)) continue;
    const cut = pixels.crop(readArea(code));
    const found = await readCodes(cut, code.format);
    // A code found elsewhere in the cut-out is not this one.
    const own = found.filter((result) => {
      const { topLeft, bottomRight } = result.position;
      const x = (cut.x + (topLeft.x + bottomRight.x) / 2) / cut.scale;
      const y = (cut.y + (topLeft.y + bottomRight.y) / 2) / cut.scale;
      return (
        x >= code.box.x &&
        x <= code.box.x + code.box.width &&
        y >= code.box.y &&
        y <= code.box.y + code.box.height
      );
    });
    if (own.some((result) => result.text === code.expected)) continue;
    const named = `the ${code.label} "${code.layerId}"${where.pages > 1 ? ` on page ${where.page}` : ''}`;
    const read = own[0]?.text;
    problems.push({
      path: codeValuePath(where.template, { id: code.layerId, value: code.source }),
      message:
        read === undefined
          ? `${named} does not scan: a reader finds no code in the output's pixels. Draw it larger, with more contrast between its colours, and with no other layer over it`
          : `${named} scans as ${quote(read)}, not as its value ${quote(code.expected)}`,
      code: 'code-unreadable',
    });
  }
  return problems;
}

/**
 * The whole pixels inside a box: a code placed at half a pixel (a print layout's bleed moves
 * the page by 37.5 px) must not bring a column of its surroundings into a pure reading.
 */
function inside(box: Box): Box {
  const x = Math.ceil(box.x);
  const y = Math.ceil(box.y);
  return {
    x,
    y,
    width: Math.floor(box.x + box.width) - x,
    height: Math.floor(box.y + box.height) - y,
  };
}
