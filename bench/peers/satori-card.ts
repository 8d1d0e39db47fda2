import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import { dataUri, type ReferenceCard } from './reference-card.js';

type Node = { type: string; props: Record<string, unknown> };
const el = (
  type: string,
  style: Record<string, unknown>,
  children?: unknown,
  extra: Record<string, unknown> = {},
): Node => ({
  type,
  props: { style, children, ...extra },
});

/** The reference card through satori (JSX-like tree → SVG) and resvg (SVG → PNG). */
export async function renderWithSatori(card: ReferenceCard): Promise<Buffer> {
  const tree = el(
    'div',
    {
      position: 'relative',
      display: 'flex',
      width: 1080,
      height: 1080,
      background: 'linear-gradient(160deg, #FFF7ED, #FFEDD5)',
      fontFamily: 'Be Vietnam Pro',
    },
    [
      el(
        'img',
        {
          position: 'absolute',
          left: 64,
          top: 160,
          width: 952,
          height: 520,
          objectFit: 'cover',
          borderRadius: 32,
        },
        undefined,
        { src: dataUri(card.photo) },
      ),
      el('img', { position: 'absolute', left: 64, top: 56, height: 64 }, undefined, {
        src: dataUri(card.logo),
      }),
      el(
        'div',
        {
          position: 'absolute',
          right: 64,
          top: 56,
          background: '#E11D48',
          color: 'white',
          fontWeight: 700,
          fontSize: 40,
          padding: '12px 28px',
          borderRadius: 999,
        },
        card.badge,
      ),
      el(
        'div',
        {
          position: 'absolute',
          left: 64,
          top: 712,
          width: 952,
          fontWeight: 700,
          fontSize: 60,
          lineHeight: 1.15,
          color: '#1F2937',
        },
        card.headline,
      ),
      el(
        'div',
        { position: 'absolute', left: 64, top: 860, width: 640, fontSize: 32, color: '#4B5563' },
        card.subtitle,
      ),
      el(
        'div',
        {
          position: 'absolute',
          right: 64,
          top: 900,
          fontWeight: 700,
          fontSize: 64,
          color: '#C2410C',
        },
        card.price,
      ),
    ],
  );
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], {
    width: 1080,
    height: 1080,
    fonts: [
      { name: 'Be Vietnam Pro', data: card.fontRegular, weight: 400, style: 'normal' },
      { name: 'Be Vietnam Pro', data: card.fontBold, weight: 700, style: 'normal' },
    ],
  });
  return Buffer.from(new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng());
}
