import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import { buildJob, readCatalogTemplates } from '../../scripts/preview-template.js';
import { poppler, rasterisePdf } from '../helpers/poppler.js';

/**
 * The Vietnamese certificate (giấy khen) as printed on A4: the national heading at the top right
 * (quốc hiệu, then the tiêu ngữ underlined), and under the signer's title a clear space of
 * 35–40 mm where the head signs and stamps the round seal. Read from the real PDF: word boxes
 * from pdftotext, drawn lines from a raster.
 */
const entry = readCatalogTemplates().find((e) => e.slug === 'certificate-award')!;
const MM_PER_PT = 25.4 / 72;
const NATION = 'CỘNG HÒA XÃ HỘI CHỦ NGHĨA VIỆT NAM';
const MOTTO = 'Độc lập - Tự do - Hạnh phúc';

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

async function printed(values: Record<string, unknown>) {
  const result = await renderJob({
    ...buildJob(entry, 'square', values),
    ratio: 'a4',
    format: 'pdf',
  });
  if (!result.ok) throw new Error(result.message);
  const html = poppler('pdftotext', result.bytes, ['-bbox']);
  const words: Word[] = [
    ...html.matchAll(
      /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g,
    ),
  ].map((m) => ({
    text: m[5]!.replace(/&amp;/g, '&'),
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
  return { pdf: result.bytes, words };
}

/** The box of a run of consecutive words that spells `phrase`. */
function phrase(words: Word[], text: string): Word {
  const parts = text.split(' ');
  for (let i = 0; i + parts.length <= words.length; i++) {
    const run = words.slice(i, i + parts.length);
    if (run.every((w, k) => w.text === parts[k]))
      return {
        text,
        xMin: Math.min(...run.map((w) => w.xMin)),
        yMin: Math.min(...run.map((w) => w.yMin)),
        xMax: Math.max(...run.map((w) => w.xMax)),
        yMax: Math.max(...run.map((w) => w.yMax)),
      };
  }
  throw new Error(`"${text}" is not in the PDF's text: ${words.map((w) => w.text).join(' ')}`);
}

describe('the certificate on A4', () => {
  it('is headed by the quốc hiệu and the underlined tiêu ngữ at the top right, above the title', async () => {
    const { pdf, words } = await printed(entry.template.sampleValues);
    const nation = phrase(words, NATION);
    const motto = phrase(words, MOTTO);
    const title = phrase(words, 'GIẤY KHEN');
    const issuer = phrase(words, 'TRƯỜNG THCS NGUYỄN DU');
    expect(motto.yMin).toBeGreaterThanOrEqual(nation.yMax - 1);
    expect(title.yMin).toBeGreaterThan(motto.yMax);
    // The heading on the right half, the issuing school on the left, on the same line.
    const pageWidth = Number(/Page size:\s+([\d.]+)/.exec(poppler('pdfinfo', pdf))![1]);
    expect(nation.xMin).toBeGreaterThan(pageWidth / 2);
    expect(issuer.xMax).toBeLessThan(pageWidth / 2);
    expect(Math.abs(issuer.yMin - nation.yMin)).toBeLessThan(3);
    // A rule under the tiêu ngữ as long as it (within 10 %), within 4 mm below its text.
    const dpi = 150;
    const { data, info } = await sharp(rasterisePdf(pdf, dpi))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const px = (pt: number) => Math.round((pt * dpi) / 72);
    let longest = 0;
    for (let y = px(motto.yMax) - 2; y <= px(motto.yMax + 4 / MM_PER_PT); y++) {
      let run = 0;
      for (let x = px(motto.xMin) - 20; x <= px(motto.xMax) + 20; x++) {
        run = data[y * info.width + x]! < 120 ? run + 1 : 0;
        longest = Math.max(longest, run);
      }
    }
    const mottoWidth = px(motto.xMax) - px(motto.xMin);
    expect(longest).toBeGreaterThan(mottoWidth * 0.9);
    expect(longest).toBeLessThan(mottoWidth * 1.1);
  });

  it.each([
    ['sample', entry.template.sampleValues],
    [
      'long',
      {
        ...entry.template.sampleValues,
        achievement:
          'Đã có thành tích xuất sắc trong công tác giảng dạy, bồi dưỡng học sinh giỏi cấp thành phố và hướng dẫn học sinh đạt giải Nhất cuộc thi Khoa học kỹ thuật năm học 2024–2025.',
        place: 'Thành phố Hồ Chí Minh',
        signerTitle: 'Phó Hiệu trưởng phụ trách',
        signerName: 'Nguyễn Thị Phương Thảo',
      },
    ],
  ])(
    'leaves 35–40 mm of clear paper between the signer’s title and name for the signature and seal (%s values)',
    async (_name, values) => {
      const { pdf, words } = await printed(values);
      const name = phrase(words, values.signerName as string);
      const titleWords = (values.signerTitle as string).toUpperCase().split(' ');
      const title = phrase(
        words.filter((w) => w.yMax < name.yMin),
        titleWords.join(' '),
      );
      const [titleWord, nameWord] = [title, name];
      const gapMm = (nameWord.yMin - titleWord.yMax) * MM_PER_PT;
      expect(gapMm).toBeGreaterThanOrEqual(35);
      expect(gapMm).toBeLessThanOrEqual(41);
      // Nothing is printed there: a 40 mm wide band centred on the signature block is blank.
      const dpi = 100;
      const { data, info } = await sharp(rasterisePdf(pdf, dpi))
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const px = (pt: number) => Math.round((pt * dpi) / 72);
      const centre = (nameWord.xMin + nameWord.xMax) / 2;
      const half = 20 / MM_PER_PT;
      const background = data[px(titleWord.yMax + 10) * info.width + px(centre)]!;
      let marked = 0;
      for (let y = px(titleWord.yMax) + 2; y < px(nameWord.yMin) - 2; y++)
        for (let x = px(centre - half); x <= px(centre + half); x++)
          if (Math.abs(data[y * info.width + x]! - background) > 24) marked++;
      expect(marked).toBe(0);
    },
  );
});
