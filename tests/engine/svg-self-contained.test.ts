import { gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import {
  assertSvgBytesSelfContained,
  assertSvgSelfContained,
  MAX_SVG_BYTES,
} from '../../main/engine/svg-self-contained.js';

const SVG_OPEN =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">';
const svg = (body: string) => `${SVG_OPEN}${body}</svg>`;

/** The check's verdict: null when the SVG passes, else the refusal's code. */
function verdict(input: string | Uint8Array): string | null {
  try {
    if (typeof input === 'string') assertSvgSelfContained(input, 'values.logo');
    else assertSvgBytesSelfContained(input, 'values.logo');
    return null;
  } catch (error) {
    // Anything but a 422 the user can act on (a RangeError, a stack overflow) is a defect.
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(422);
    expect((error as AppError).problems?.[0]?.path ?? 'values.logo').toBe('values.logo');
    return (error as AppError).code;
  }
}

/**
 * CPU milliseconds `run` takes. CPU time, not wall time: on a loaded machine the wall clock also
 * counts the time other processes held the cores, and a linear scan must not fail for that.
 */
function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** About 1 MiB of each shape that made the old regular expressions quadratic (or worse). */
const N = 1 << 20;
const repeat = (unit: string) => unit.repeat(Math.ceil(N / unit.length));
const ADVERSARIAL: Record<string, string> = {
  'unclosed <image repeated': SVG_OPEN + repeat('<image '),
  'unclosed <!DOCTYPE repeated': repeat('<!DOCTYPE'),
  'url( repeated in a style sheet': svg(`<style>${repeat('url(')}</style>`),
  'url( repeated in an attribute': `${SVG_OPEN}<rect fill="${repeat('url(#a ')}"/></svg>`,
  'url(" with no closing quote, repeated': svg(`<style>${repeat('url("#')}</style>`),
  'unquoted href= repeated': SVG_OPEN + repeat('<image href=#a '),
  'href=" with no closing quote, repeated': SVG_OPEN + repeat('<image href="#a '),
  'xlink:href= runs in one tag': `${SVG_OPEN}<image ${repeat('xlink:href=')}/></svg>`,
  'long run of distinct attributes': `${SVG_OPEN}<rect ${Array.from({ length: 60_000 }, (_, i) => `a${i}="#"`).join(' ')}/></svg>`,
  'character references repeated': svg(`<text>${repeat('&#')}</text>`),
  'CSS escapes repeated': svg(`<style>${repeat('\\75 \\')}</style>`),
  'unclosed comment openers': SVG_OPEN + repeat('<!--'),
  'unclosed CDATA openers': SVG_OPEN + repeat('<![CDATA['),
  'deep nesting': SVG_OPEN + '<g>'.repeat(200_000) + '</g>'.repeat(200_000) + '</svg>',
  'whitespace before a url( target': svg(`<style>url(${' '.repeat(N)}</style>`),
};

describe('the SVG self-containment check', () => {
  it.each(Object.entries(ADVERSARIAL))(
    'answers in linear time on crafted input: %s',
    (_name, input) => {
      const elapsed = cpuMs(() => verdict(input));
      // The old regular expressions took 10 s on 360 KB of `<!DOCTYPE` or `url(`; a linear scan
      // of 1 MiB takes tens of milliseconds, so a second leaves room for a loaded machine.
      expect(elapsed).toBeLessThan(1000);
    },
  );

  it('refuses an SVG over the size cap before reading it', () => {
    const big = svg(`<rect fill="#000" width="1" height="1"/>`.repeat(MAX_SVG_BYTES / 30));
    // Compressed outside the timed part: only the checks' own time is measured.
    const zipped = gzipSync(big);
    const elapsed = cpuMs(() => {
      expect(verdict(big)).toBe('image-invalid');
      expect(verdict(zipped)).toBe('image-invalid');
    });
    expect(elapsed).toBeLessThan(1000);
  });

  it.each([
    ['file: image', svg('<image href="file:///etc/passwd"/>')],
    ['http: image', svg('<image xlink:href="http://example.com/x.png"/>')],
    ['relative image', svg('<image href="cat.png"/>')],
    ['href behind a character reference', svg('<image href="&#102;ile:///etc/hosts"/>')],
    ['href behind spaces and a newline', svg('<image href=" \n file:///etc/hosts"/>')],
    [
      'href under another namespace prefix',
      svg('<image x:href="cat.png" xmlns:x="http://www.w3.org/1999/xlink"/>'),
    ],
    [
      'XInclude',
      svg(
        '<xi:include href="/etc/passwd" parse="text" xmlns:xi="http://www.w3.org/2001/XInclude"/>',
      ),
    ],
    ['nested SVG data URI', svg('<image href="data:image/svg+xml,%3Csvg/%3E"/>')],
    ['url() in a presentation attribute', svg('<rect fill="url(https://x/y.svg#p)"/>')],
    ['URL() in capitals', svg('<rect style="fill: URL(file:///x#p)"/>')],
    ['url() spelled with a CSS escape', svg('<style>rect { fill: \\75 rl(file:///x#p) }</style>')],
    ['url() inside CDATA', svg('<style><![CDATA[rect { fill: url("x.svg#p") }]]></style>')],
    ['@import', svg('<style>@import url(x.css);</style>')],
    ['@import spelled with an escape', svg('<style>@\\69mport "x.css";</style>')],
    ['@import behind a character reference', svg('<style>&#64;import "x.css";</style>')],
    [
      'xml-stylesheet processing instruction',
      `<?xml-stylesheet type="text/css" href="x.css"?>${svg('')}`,
    ],
    [
      'XXE',
      `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>${svg('<text>&x;</text>')}`,
    ],
    [
      'billion laughs',
      `<!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]>${svg('<text>&b;</text>')}`,
    ],
  ])('refuses an external reference: %s', (_name, body) => {
    expect(verdict(body)).toBe('svg-external-reference');
    // Compressed (.svgz), it is the same SVG to librsvg.
    expect(verdict(gzipSync(body))).toBe('svg-external-reference');
  });

  it.each([
    ['an undeclared entity', svg('<text>&x;</text>')],
    ['a UTF-16 encoding declaration', `<?xml version="1.0" encoding="UTF-16"?>${svg('')}`],
    ['a Shift_JIS encoding declaration', `<?xml version="1.0" encoding="Shift_JIS"?>${svg('')}`],
    [
      'UTF-16 without a byte order mark',
      Buffer.from(`<?xml version="1.0"?>${svg('<image href="x.png"/>')}`, 'utf16le'),
    ],
    [
      'bytes that are not UTF-8',
      Buffer.concat([
        Buffer.from(svg('<text>')),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('</text>'),
      ]),
    ],
    ['an attribute without quotes', svg('<image href=x.png/>')],
    ['a "<" inside an attribute value', svg('<image title="<" href="#a"/>')],
    ['attributes run together', svg('<image title="a"href="x.png"/>')],
    ['a bare ampersand', svg('<text>fish & chips</text>')],
    ['a reference to a character XML forbids', svg('<text>&#0;</text>')],
    ['an XML declaration that is not at the start', ` <?xml version="1.0"?>${svg('')}`],
  ] as Array<[string, string | Buffer]>)(
    'refuses an SVG a parser would read differently: %s',
    (_name, body) => {
      expect(verdict(body)).toBe('image-invalid');
    },
  );

  it('refuses compressed bytes that are damaged, or that hold anything but a UTF-8 SVG', () => {
    const gz = gzipSync(svg(''));
    expect(verdict(gz.subarray(0, gz.length - 12))).toBe('image-invalid');
    const utf16 = Buffer.from(`\ufeff${svg('<image href="file:///etc/passwd"/>')}`, 'utf16le');
    expect(verdict(gzipSync(utf16))).toBe('image-invalid');
    expect(verdict(gzipSync(gzipSync(svg(''))))).toBe('image-invalid');
  });

  it('accepts self-contained SVGs: fragments, raster data: URIs, a DOCTYPE naming the SVG DTD', () => {
    const body = svg(
      '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>' +
        '<rect fill="url(#g)" style="stroke: url( \'#g\' )" width="10" height="10"/><use href="#g"/>' +
        '<image xlink:href="data:image/png;base64,iVBORw0KGgo="/>' +
        '<style>rect { fill: url(#g) } /* a comment */</style><text>café &amp; url(#x) &#x1F600;</text>',
    );
    expect(verdict(body)).toBeNull();
    expect(verdict(gzipSync(body))).toBeNull();
    const withDoctype =
      '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' +
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">\n' +
      svg('<text>&#160;</text>');
    expect(verdict(`\ufeff${withDoctype}`)).toBeNull();
    const latin1 = Buffer.from(
      `<?xml version="1.0" encoding="ISO-8859-1"?>${svg('<text>café</text>')}`,
      'latin1',
    );
    expect(verdict(latin1)).toBeNull();
    expect(verdict(svg('<g a=\'1\'\n\tb = "&lt;&#x26;&#38;" >' + '<rect/></g>'))).toBeNull();
  });

  it('lets bytes that are not markup through untouched: PNG, JPEG, and what sharp takes for no SVG', async () => {
    expect(verdict(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))).toBeNull();
    expect(verdict(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBeNull();
    // A UTF-16 SVG does not start with markup as UTF-8, and sharp does not read it as an SVG.
    const utf16 = Buffer.from(`\ufeff${svg('<image href="file:///etc/passwd"/>')}`, 'utf16le');
    expect(verdict(utf16)).toBeNull();
    await expect(sharp(utf16).metadata()).rejects.toThrow(/unsupported image format/);
  });
});
