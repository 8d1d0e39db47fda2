import fs from 'node:fs';
import path from 'node:path';

/**
 * The content of the reference card (1080×1080: photo, logo, Vietnamese headline, subtitle,
 * price, badge) as the peers draw it: the same text, the same photo and logo files, the same
 * font files, so the comparison is like for like.
 */
export interface ReferenceCard {
  headline: string;
  subtitle: string;
  price: string;
  badge: string;
  photo: Buffer;
  logo: Buffer;
  fontRegular: Buffer;
  fontBold: Buffer;
}

export function loadReferenceCard(
  repoRoot: string,
  sample: Record<string, unknown>,
  assetsDir: string,
): ReferenceCard {
  const asset = (value: unknown, fallback: string) => {
    const name =
      typeof value === 'string' && value.startsWith('asset:') ? value.slice(6) : fallback;
    return fs.readFileSync(path.join(assetsDir, name));
  };
  const text = (key: string, fallback: string) =>
    typeof sample[key] === 'string' ? (sample[key] as string) : fallback;
  const fonts = path.join(repoRoot, 'templates', 'fonts', 'be-vietnam-pro');
  return {
    headline: text('headline', 'Giày chạy bộ siêu nhẹ — Ưu đãi cuối tuần'),
    subtitle: text('subtitle', 'Êm ái, bền bỉ, thoáng khí cho mọi cung đường'),
    price: '1.250.000 ₫',
    badge: '-30%',
    photo: asset(sample.photo, 'photo.jpg'),
    logo: asset(sample.logo, 'logo.png'),
    fontRegular: fs.readFileSync(path.join(fonts, 'BeVietnamPro_400Regular.ttf')),
    fontBold: fs.readFileSync(path.join(fonts, 'BeVietnamPro_700Bold.ttf')),
  };
}

export function dataUri(bytes: Buffer): string {
  const mime = bytes[0] === 0x89 ? 'image/png' : bytes[0] === 0xff ? 'image/jpeg' : 'image/webp';
  return `data:${mime};base64,${bytes.toString('base64')}`;
}

/** The card as HTML with CSS, for Chromium. */
export function referenceCardHtml(card: ReferenceCard): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
@font-face { font-family: 'Be Vietnam Pro'; font-weight: 400; src: url(data:font/ttf;base64,${card.fontRegular.toString('base64')}); }
@font-face { font-family: 'Be Vietnam Pro'; font-weight: 700; src: url(data:font/ttf;base64,${card.fontBold.toString('base64')}); }
html, body { margin: 0; }
#card { position: relative; width: 1080px; height: 1080px; overflow: hidden; background: linear-gradient(160deg, #FFF7ED, #FFEDD5); font-family: 'Be Vietnam Pro'; }
#photo { position: absolute; left: 64px; top: 160px; width: 952px; height: 520px; object-fit: cover; border-radius: 32px; }
#logo { position: absolute; left: 64px; top: 56px; height: 64px; }
#badge { position: absolute; right: 64px; top: 56px; background: #E11D48; color: white; font-weight: 700; font-size: 40px; padding: 12px 28px; border-radius: 999px; }
#headline { position: absolute; left: 64px; top: 712px; width: 952px; font-weight: 700; font-size: 60px; line-height: 1.15; color: #1F2937; }
#subtitle { position: absolute; left: 64px; top: 860px; width: 640px; font-size: 32px; color: #4B5563; }
#price { position: absolute; right: 64px; top: 900px; font-weight: 700; font-size: 64px; color: #C2410C; }
</style></head><body><div id="card">
<img id="photo" src="${dataUri(card.photo)}"><img id="logo" src="${dataUri(card.logo)}">
<div id="badge">${card.badge}</div><div id="headline">${card.headline}</div>
<div id="subtitle">${card.subtitle}</div><div id="price">${card.price}</div>
</div></body></html>`;
}
