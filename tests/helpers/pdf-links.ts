/**
 * The link annotations of a PDF, read from its objects (Skia writes them as plain dictionaries):
 * each link's page, URI and rectangle in points from the page's top-left corner, as a viewer
 * shows it.
 */
export interface PdfLink {
  page: number;
  uri: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function pdfLinks(pdf: Uint8Array): PdfLink[] {
  const text = Buffer.from(pdf).toString('latin1');
  const objects = new Map<number, string>();
  for (const match of text.matchAll(/(?:^|\n)(\d+) 0 obj\s*([^]*?)endobj/g)) {
    objects.set(Number(match[1]), match[2] as string);
  }
  const pages = [...objects.entries()]
    .filter(([, body]) => /\/Type \/Page\b(?!s)/.test(body) && !body.includes('stream'))
    .map(([number]) => number);
  // Page order is the page tree's /Kids order.
  const kids = /\/Type \/Pages[^]*?\/Kids \[([^\]]*)\]/.exec(text)?.[1] ?? '';
  const order = [...kids.matchAll(/(\d+) 0 R/g)].map((m) => Number(m[1]));
  const links: PdfLink[] = [];
  for (const number of order.length > 0 ? order : pages) {
    const body = objects.get(number) ?? '';
    const top = Number(/\/MediaBox \[\S+ \S+ \S+ (\S+)\]/.exec(body)?.[1] ?? 0);
    const annots = /\/Annots \[([^\]]*)\]/.exec(body)?.[1] ?? '';
    for (const ref of annots.matchAll(/(\d+) 0 R/g)) {
      const annot = objects.get(Number(ref[1])) ?? '';
      if (!annot.includes('/Subtype /Link')) continue;
      const rect = /\/Rect \[([^\]]*)\]/.exec(annot)?.[1]?.trim().split(/\s+/).map(Number) ?? [];
      const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = rect;
      links.push({
        page: order.indexOf(number) + 1,
        uri: pdfString(/\/URI (\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f]*>)/.exec(annot)?.[1] ?? ''),
        left: Math.min(x0, x1),
        right: Math.max(x0, x1),
        top: top - Math.max(y0, y1),
        bottom: top - Math.min(y0, y1),
      });
    }
  }
  return links;
}

/** A PDF string literal `(…)` with its escapes, or a hex string `<…>`, as text. */
function pdfString(token: string): string {
  if (token.startsWith('<')) return Buffer.from(token.slice(1, -1), 'hex').toString('latin1');
  return token
    .slice(1, -1)
    .replace(/\\([0-7]{1,3}|.)/g, (_, escaped: string) =>
      /^[0-7]/.test(escaped)
        ? String.fromCharCode(parseInt(escaped, 8))
        : (({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' } as Record<string, string>)[escaped] ??
          escaped),
    );
}
