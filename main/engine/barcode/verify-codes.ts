import { createCanvas } from '@napi-rs/canvas';
import type { Problem } from '../../../shared/errors.js';
import type { Template } from '../../../shared/template-format.js';
import type { Box } from './barcode-placement.js';
import { quote } from './barcode-value.js';
import type { CodePixels, CroppedPixels } from './code-pixels.js';
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
    // A scanner reads a code at any angle; ZXing's linear readers only along rows and columns.
    // A code turned off those is read once more turned back upright.
    if (offAxis(code.angle) && (await readsUpright(cut, code))) continue;
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

/** Turned by other than a multiple of a right angle (a few hundredths of a degree aside). */
function offAxis(angle: number | undefined): boolean {
  if (!angle) return false;
  const quarter = Math.PI / 2;
  const off = Math.abs(angle - Math.round(angle / quarter) * quarter);
  return off > 1e-3;
}

/**
 * Whether the cut-out, turned back by the code's angle onto white, reads as the code's value.
 * The cut-out is centred on the code and holds no other whole code (readArea), so an exact
 * reading there is this code's.
 */
async function readsUpright(cut: CroppedPixels, code: DrawnCode): Promise<boolean> {
  const angle = code.angle ?? 0;
  const source = createCanvas(cut.width, cut.height);
  const image = source.getContext('2d').createImageData(cut.width, cut.height);
  image.data.set(cut.data);
  source.getContext('2d').putImageData(image, 0, 0);
  const [cos, sin] = [Math.abs(Math.cos(angle)), Math.abs(Math.sin(angle))];
  const width = Math.ceil(cut.width * cos + cut.height * sin);
  const height = Math.ceil(cut.width * sin + cut.height * cos);
  const upright = createCanvas(width, height);
  const ctx = upright.getContext('2d');
  ctx.fillStyle = '#FFFFFF';
  ctx.fillRect(0, 0, width, height);
  ctx.translate(width / 2, height / 2);
  ctx.rotate(-angle);
  ctx.drawImage(source, -cut.width / 2, -cut.height / 2);
  const pixels = ctx.getImageData(0, 0, width, height);
  const found = await readCodes(
    { data: pixels.data, width: pixels.width, height: pixels.height },
    code.format,
  );
  return found.some((result) => result.text === code.expected);
}
