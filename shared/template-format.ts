import { z } from 'zod';
import { BARCODE_SYMBOLOGIES } from './barcode-symbologies.js';
import { RATIO_NAMES } from './ratios.js';
import {
  MAX_CANVAS_SIDE,
  MAX_PAGES,
  VISIBILITY_MAX_CONDITIONS,
  VISIBILITY_MAX_DEPTH,
  VISIBILITY_MAX_LIST,
} from './template-limits.js';
import { LINK_START, MAX_LINK_LENGTH } from './link-url.js';

/**
 * The template format (DESIGN §5): a template is data. This schema validates built-in templates,
 * workspace templates and imported packs, and is published as templates/template.schema.json.
 */

/**
 * The newest template format this build reads. Format 1 templates render exactly as they always
 * did; the layout and text features of format 2 (stacks, group fitting, balanced breaks, rich
 * text…) take effect only in templates that declare `schemaVersion: 2`.
 */
export const TEMPLATE_SCHEMA_VERSION = 2;
export const TEMPLATE_SCHEMA_VERSIONS = [1, 2] as const;
export type TemplateSchemaVersion = (typeof TEMPLATE_SCHEMA_VERSIONS)[number];

export const Ratio = z.enum(RATIO_NAMES);
export type Ratio = z.infer<typeof Ratio>;

export const VARIABLE_TYPES = [
  'text',
  'longText',
  'colour',
  'image',
  'number',
  'date',
  'enum',
  'list',
] as const;
export const VariableType = z.enum(VARIABLE_TYPES);
export type VariableType = z.infer<typeof VariableType>;

export const BRAND_ROLES = [
  'brand.logo',
  'brand.logoDark',
  'brand.name',
  'brand.tagline',
  'brand.website',
  'brand.primaryColor',
  'brand.secondaryColor',
  'brand.accentColor',
  'brand.textColor',
  'brand.backgroundColor',
  'brand.font.heading',
  'brand.font.body',
] as const;
export const BrandRole = z.enum(BRAND_ROLES);
export type BrandRole = z.infer<typeof BrandRole>;

export const VariableName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'letters, digits and _, starting with a letter');

export const HexColour = z
  .string()
  .regex(
    /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/,
    'a colour like #1A2B3C or #1A2B3CFF',
  );

/** A reference to a variable's value, usable wherever a layer property may be bound. */
export const VarRef = z.object({ var: VariableName }).strict();
export type VarRef = z.infer<typeof VarRef>;

/**
 * A colour: a literal, or bound to a colour variable (falls back to `fallback` when empty).
 * `alpha` (0–1) scales the bound colour's opacity, as `#RRGGBBAA` does for a literal: a fade
 * into a brand colour needs that colour at 0 % and 50 %, whatever the user picked.
 */
export const ColourValue = z.union([
  HexColour,
  z
    .object({
      var: VariableName,
      fallback: HexColour.optional(),
      alpha: z.number().min(0).max(1).optional(),
    })
    .strict(),
]);
export type ColourValue = z.infer<typeof ColourValue>;

const GradientStop = z.object({ offset: z.number().min(0).max(1), colour: ColourValue }).strict();

export const LinearGradient = z
  .object({
    type: z.literal('linear'),
    /** Degrees, CSS convention: 0 = bottom→top, 90 = left→right, 180 = top→bottom. */
    angle: z.number().default(180),
    stops: z.array(GradientStop).min(2).max(16),
  })
  .strict();

export const RadialGradient = z
  .object({
    type: z.literal('radial'),
    /** Centre as fractions of the box. */
    cx: z.number().min(0).max(1).default(0.5),
    cy: z.number().min(0).max(1).default(0.5),
    /** Radius as a fraction of the box's larger side. */
    radius: z.number().positive().max(4).default(0.75),
    stops: z.array(GradientStop).min(2).max(16),
  })
  .strict();

/** A paint: solid colour (literal or bound) or a gradient. */
export const Paint = z.union([ColourValue, LinearGradient, RadialGradient]);
export type Paint = z.infer<typeof Paint>;

export const Stroke = z
  .object({
    paint: Paint,
    width: z.number().positive().max(200),
    dash: z.array(z.number().nonnegative()).max(8).optional(),
  })
  .strict();

const RuleValue = z.union([z.string().max(500), z.number(), z.boolean()]);

/**
 * One condition on one variable; every operator it sets must hold. `notEmpty`: show only when
 * the variable has a value (DESIGN §5: hide a layer when its variable is empty), `false` only
 * when it has none. `equals` / `notEquals` / `in` compare the value as text (an enum's value).
 * `gt`, `lt` and `between` (inclusive) compare it as a number, read the way cells are read
 * (`1.250.000` in vi-VN); a value that is no number fails them.
 */
export const VisibilityCondition = z
  .object({
    var: VariableName,
    notEmpty: z.boolean().optional(),
    equals: RuleValue.optional(),
    notEquals: RuleValue.optional(),
    in: z.array(RuleValue).min(1).max(VISIBILITY_MAX_LIST).optional(),
    gt: z.number().optional(),
    lt: z.number().optional(),
    between: z
      .tuple([z.number(), z.number()])
      .refine(([low, high]) => low <= high, 'between takes [low, high] with low ≤ high')
      .optional(),
  })
  .strict();
export type VisibilityCondition = z.infer<typeof VisibilityCondition>;

/** A condition, or a group whose rules must all (`all`) or at least one (`any`) hold. */
export type VisibilityRule =
  VisibilityCondition | { all: VisibilityRule[] } | { any: VisibilityRule[] };

const VisibilityRuleShape: z.ZodType<VisibilityRule> = z.lazy(() =>
  z.union([
    VisibilityCondition,
    z.object({ all: z.array(VisibilityRuleShape).min(1).max(VISIBILITY_MAX_CONDITIONS) }).strict(),
    z.object({ any: z.array(VisibilityRuleShape).min(1).max(VISIBILITY_MAX_CONDITIONS) }).strict(),
  ]),
);

/** How deep a rule's groups nest and how many conditions it holds. */
export function visibilityRuleSize(rule: VisibilityRule): { depth: number; conditions: number } {
  if ('var' in rule) return { depth: 0, conditions: 1 };
  const sizes = ('all' in rule ? rule.all : rule.any).map(visibilityRuleSize);
  return {
    depth: 1 + Math.max(0, ...sizes.map((size) => size.depth)),
    conditions: sizes.reduce((sum, size) => sum + size.conditions, 0),
  };
}

/**
 * When a layer is drawn (absent: always). Bounded in depth and size: the engine checks it for
 * every layer of every row.
 */
export const VisibleWhen = VisibilityRuleShape.superRefine((rule, ctx) => {
  const { depth, conditions } = visibilityRuleSize(rule);
  if (depth > VISIBILITY_MAX_DEPTH)
    ctx.addIssue({
      code: 'custom',
      message: `all / any groups nest at most ${VISIBILITY_MAX_DEPTH} deep; this rule nests ${depth}`,
    });
  if (conditions > VISIBILITY_MAX_CONDITIONS)
    ctx.addIssue({
      code: 'custom',
      message: `a rule holds at most ${VISIBILITY_MAX_CONDITIONS} conditions; this one holds ${conditions}`,
    });
});
export type VisibleWhen = VisibilityRule;

const LayerBase = {
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  x: z.number(),
  y: z.number(),
  width: z.number().positive(),
  height: z.number().positive(),
  rotation: z.number().min(-360).max(360).optional(),
  opacity: z.number().min(0).max(1).optional(),
  visibleWhen: VisibleWhen.optional(),
  /**
   * Backgrounds and ornaments: nothing a viewer must read or scan. The rule checks (safe zones,
   * text sizes) leave decorative layers out; drawing ignores the flag.
   */
  decorative: z.boolean().optional(),
};

/**
 * A link over a text or image layer in PDF output (raster outputs have none): an http, https or
 * mailto address with `{{variable}}` placeholders, checked again once they are filled.
 */
export const LayerLink = z
  .string()
  .min(1)
  .max(MAX_LINK_LENGTH)
  .regex(LINK_START, 'an http(s) or mailto link, or a {{placeholder}} that gives one');

/** Format 2: names a group of text layers that shrink together, keeping their size ratios. */
export const FitGroupName = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/, 'a group name like titles');

/**
 * Format 2: the subject of an image (the product, the face) as fractions of the source image;
 * a cover crop always keeps all of it in the frame.
 */
export const KeepBox = z
  .object({
    x: z.number().min(0).max(1),
    y: z.number().min(0).max(1),
    width: z.number().positive().max(1),
    height: z.number().positive().max(1),
  })
  .strict();
export type KeepBox = z.infer<typeof KeepBox>;

export const FontSpec = z
  .object({
    /** A family shipped in templates/fonts, or bound to a brand font variable. */
    family: z.union([z.string().min(1), VarRef]),
    weight: z.number().int().min(100).max(900).default(400),
    style: z.enum(['normal', 'italic']).default('normal'),
  })
  .strict();
export type FontSpec = z.infer<typeof FontSpec>;

export const TextStyle = {
  font: FontSpec,
  /** Preferred size in px; shrink-to-fit goes down to `minSize`. */
  size: z.number().positive().max(1000),
  minSize: z.number().positive().max(1000).optional(),
  colour: ColourValue,
  align: z.enum(['left', 'center', 'right']).default('left'),
  verticalAlign: z.enum(['top', 'middle', 'bottom']).default('top'),
  /** Multiple of the font size. */
  lineHeight: z.number().min(0.5).max(4).default(1.2),
  /** In px at the preferred size; scaled with the fitted size. */
  letterSpacing: z.number().min(-50).max(200).default(0),
  transform: z.enum(['none', 'uppercase', 'lowercase', 'capitalize']).default('none'),
  maxLines: z.number().int().min(1).max(100).optional(),
};

/** Format 2: text along an arc of a circle centred in the layer's box (seals, badges). */
export const TextPath = z
  .object({
    kind: z.literal('arc'),
    /** Radius of the baseline in px; by default the box's inscribed circle less the size. */
    radius: z.number().positive().max(5000).optional(),
    /** Where the middle of the text sits, degrees clockwise from the top (0 = top, 180 = bottom). */
    angle: z.number().min(-360).max(360).default(0),
    /** The most of the circle the text may use, degrees; longer text shrinks to fit. */
    sweep: z.number().positive().max(360).default(300),
    /** Letters read from the inside (text along the bottom of a seal reads left to right). */
    inside: z.boolean().default(false),
  })
  .strict();
export type TextPath = z.infer<typeof TextPath>;

/** Text layer properties only format 2 reads (see docs/templates.md, "Text in format 2"). */
const TextFormat2 = {
  /** `balanced` (default): even lines, no lone last word, words kept together; `greedy`: fill each line. */
  wrap: z.enum(['balanced', 'greedy']).optional(),
  /** `**bold**`, `*italic*`, `~~struck~~`, `__underlined__`, `[text]{#E53935}` in text and values. */
  markup: z.boolean().optional(),
  decoration: z.enum(['none', 'underline', 'strikethrough']).optional(),
  /** Currency symbols (₫, đ, $, €…) drawn at this fraction of the size. */
  currencyScale: z.number().min(0.2).max(1).optional(),
  /** A scaled currency symbol's top is raised to the top of the digits. */
  currencyRaise: z.boolean().optional(),
  /** `auto`: right-to-left when the text starts in Arabic or Hebrew (then `align` mirrors). */
  direction: z.enum(['auto', 'ltr', 'rtl']).optional(),
  path: TextPath.optional(),
};

export const TextLayer = z
  .object({
    ...LayerBase,
    kind: z.literal('text'),
    /** Literal text with `{{variable}}` placeholders. */
    text: z.string().max(10_000),
    ...TextFormat2,
    ...TextStyle,
    /**
     * How text that does not fit is handled: `shrink` lowers the size to minSize and then
     * ellipsises; `ellipsis` keeps the size and ends the last line with "…"; `clip` never used by
     * built-ins but allowed for decorative text.
     */
    fit: z.enum(['shrink', 'ellipsis']).default('shrink'),
    /** Background pill behind the text box (badges). */
    background: z
      .object({
        paint: Paint,
        radius: z.number().nonnegative().default(0),
        padding: z.number().nonnegative().default(0),
      })
      .strict()
      .optional(),
    /** Format 2: text layers with the same group name shrink by one scale (see docs). */
    fitGroup: FitGroupName.optional(),
    link: LayerLink.optional(),
  })
  .strict();
export type TextLayer = z.infer<typeof TextLayer>;

export const ImageLayer = z
  .object({
    ...LayerBase,
    kind: z.literal('image'),
    /** A template asset (path relative to the template folder) or an image variable. */
    source: z.union([z.object({ asset: z.string().min(1) }).strict(), VarRef]),
    fit: z.enum(['cover', 'contain']).default('cover'),
    /** Point of the image kept in view when cropping (fractions, 0.5/0.5 = centre). */
    focalPoint: z
      .object({ x: z.number().min(0).max(1), y: z.number().min(0).max(1) })
      .strict()
      .default({ x: 0.5, y: 0.5 }),
    radius: z.number().nonnegative().default(0),
    circle: z.boolean().default(false),
    /** Where a contained image sits inside its box. */
    align: z.enum(['start', 'center', 'end']).default('center'),
    stroke: Stroke.optional(),
    /** Format 2: the subject kept whole in a cover crop (for a variable: its sample image). */
    keep: KeepBox.optional(),
    /** Format 2: painted behind the image, seen where a kept subject needs a smaller image. */
    background: Paint.optional(),
    link: LayerLink.optional(),
  })
  .strict();
export type ImageLayer = z.infer<typeof ImageLayer>;

export const ShapeLayer = z
  .object({
    ...LayerBase,
    kind: z.literal('shape'),
    shape: z.enum(['rectangle', 'ellipse', 'line']),
    /** Corner radius for rectangles. */
    radius: z.number().nonnegative().default(0),
    fill: Paint.optional(),
    stroke: Stroke.optional(),
  })
  .strict();
export type ShapeLayer = z.infer<typeof ShapeLayer>;

/**
 * A field of a VietQR: a literal, or a variable's own value (an enum's option value, such as a
 * bank's BIN, not its label; a number unformatted).
 */
const VietQrField = z.union([z.string().max(200), VarRef]);

/**
 * A VietQR bank transfer (NAPAS 247, EMVCo merchant-presented format): the QR layer draws its
 * payload, with the BIN, account, amount and message checked before anything is drawn.
 */
export const VietQrSource = z
  .object({
    /** The bank: its NAPAS BIN (`970436`), or a listed bank's name or code (`Vietcombank`, `VCB`). */
    bank: VietQrField,
    /** The account number, 6–19 digits. */
    account: VietQrField,
    /** Đồng, a whole number over 0; empty or left out: the payer types the amount. */
    amount: z.union([z.number(), VietQrField]).optional(),
    /** The transfer's description, at most 25 letters, digits and spaces (marks are dropped). */
    message: VietQrField.optional(),
  })
  .strict();
export type VietQrSource = z.infer<typeof VietQrSource>;

export const QrLayer = z
  .object({
    ...LayerBase,
    kind: z.literal('qr'),
    /**
     * Text with `{{variable}}` placeholders, usually a URL; or `{ "vietqr": { … } }`, a bank
     * transfer the layer builds the payload of.
     */
    value: z.union([z.string().min(1).max(4000), z.object({ vietqr: VietQrSource }).strict()]),
    foreground: ColourValue.default('#000000'),
    background: ColourValue.default('#FFFFFF'),
    errorCorrection: z.enum(['L', 'M', 'Q', 'H']).default('M'),
    /** Quiet zone in modules. */
    margin: z.number().int().min(0).max(8).default(2),
  })
  .strict();
export type QrLayer = z.infer<typeof QrLayer>;

export const BarcodeSymbology = z.enum(BARCODE_SYMBOLOGIES);
export type BarcodeSymbology = z.infer<typeof BarcodeSymbology>;

/**
 * A barcode: whole-pixel modules with the symbology's quiet zones, centred in the box. EAN,
 * UPC and ITF-14 values may leave their check digit out (it is added) or give it (it is checked).
 * `gtin` draws a retail product number as EAN-8, UPC-A or EAN-13, picked by its length.
 */
export const BarcodeLayer = z
  .object({
    ...LayerBase,
    kind: z.literal('barcode'),
    symbology: BarcodeSymbology,
    /** Text with `{{variable}}` placeholders: digits, a product code, a GS1 element string. */
    value: z.string().min(1).max(4000),
    foreground: ColourValue.default('#000000'),
    background: ColourValue.default('#FFFFFF'),
    /**
     * The human-readable text under the code (EAN/UPC: digits in their standard places). On by
     * default for the linear symbologies, off for DataMatrix, PDF417 and Aztec.
     */
    humanReadable: z.boolean().optional(),
    /** The human-readable text's font; the template's default family when left out. */
    font: FontSpec.optional(),
  })
  .strict();
export type BarcodeLayer = z.infer<typeof BarcodeLayer>;

/**
 * Format 2: a list's price column. Each item is split at its last `separator` ("Phở bò — 65.000
 * ₫"): the name wraps on the left, the price is set flush right on the name's last line, and
 * `leader` dots fill the space between them. An item without the separator is an ordinary item.
 */
export const PriceColumn = z
  .object({
    separator: z.string().min(1).max(8).default('—'),
    leader: z.enum(['dots', 'none']).default('dots'),
  })
  .strict();
export type PriceColumn = z.infer<typeof PriceColumn>;

export const ListLayer = z
  .object({
    ...LayerBase,
    kind: z.literal('list'),
    items: VarRef,
    ...TextStyle,
    bullet: z.string().max(4).default('•'),
    bulletColour: ColourValue.optional(),
    /** Space between items in px at the preferred size. */
    gap: z.number().nonnegative().default(12),
    maxItems: z.number().int().min(1).max(50).optional(),
    /** Format 2: prices flush right with dot leaders (menus, price lists). */
    priceColumn: PriceColumn.optional(),
  })
  .strict();
export type ListLayer = z.infer<typeof ListLayer>;

export const STACK_MAX_DEPTH = 4;

/**
 * Format 2: an auto-layout group. Its children are laid out one after the other (their own x
 * and y are ignored): a text child takes the height (horizontal: the width) its fitted lines
 * need, up to its own box, so what follows moves up or down; when the children do not fit the
 * stack's box, text children shrink until they do.
 */
export const StackLayer = z
  .object({
    id: LayerBase.id,
    x: LayerBase.x,
    y: LayerBase.y,
    width: LayerBase.width,
    height: LayerBase.height,
    /** Turns the whole group about the stack's centre. */
    rotation: LayerBase.rotation,
    opacity: LayerBase.opacity,
    visibleWhen: LayerBase.visibleWhen,
    decorative: LayerBase.decorative,
    kind: z.literal('stack'),
    direction: z.enum(['vertical', 'horizontal']).default('vertical'),
    /** Space between visible children, px. */
    gap: z.number().nonnegative().max(2000).default(0),
    /** Inside the stack's box on every side, px. */
    padding: z.number().nonnegative().max(1000).default(0),
    /** Children across the stack: a vertical stack's children to the left, centre or right. */
    align: z.enum(['start', 'center', 'end']).default('start'),
    /** The children as a block along the stack: at its start, centre or end. */
    justify: z.enum(['start', 'center', 'end']).default('start'),
    get layers() {
      return z.array(Layer).min(1).max(200);
    },
  })
  .strict();
export type StackLayer = z.infer<typeof StackLayer>;

export const Layer = z.discriminatedUnion('kind', [
  TextLayer,
  ImageLayer,
  ShapeLayer,
  QrLayer,
  BarcodeLayer,
  ListLayer,
  StackLayer,
]);
export type Layer = z.infer<typeof Layer>;

/**
 * A layout's physical size: the trim size in its unit, the DPI its pixels are drawn at (layer
 * coordinates are pixels at this DPI), and the bleed and safe margin in the same unit. The
 * layout's width and height are the trim size at that DPI (template-references.ts checks it).
 */
export const PageSpec = z
  .object({
    unit: z.enum(['mm', 'in']),
    width: z.number().positive().max(2000),
    height: z.number().positive().max(2000),
    dpi: z.number().int().min(36).max(1200).default(300),
    /** Printed beyond the trim on every side and cut off; backgrounds extend into it. */
    bleed: z.number().nonnegative().max(50).default(0),
    /** Inside the trim: text and logos stay within it (the editor shows it). */
    safe: z.number().nonnegative().max(200).default(0),
  })
  .strict();
export type PageSpec = z.infer<typeof PageSpec>;

/** A page after a layout's first: the back of a badge, a certificate's second page, a slide. */
export const LayoutPage = z
  .object({
    /** Shown in the editor and in numbered file names' order only; pages are numbered from 1. */
    label: z.string().max(60).optional(),
    /** The layout's background when absent. */
    background: Paint.optional(),
    layers: z.array(Layer).max(200),
  })
  .strict();
export type LayoutPage = z.infer<typeof LayoutPage>;

export const Layout = z
  .object({
    width: z.number().int().positive().max(MAX_CANVAS_SIDE),
    height: z.number().int().positive().max(MAX_CANVAS_SIDE),
    /** Left out when a render asks for a transparent background (png, webp, avif). */
    background: Paint,
    /** Present for print layouts (A4, Letter, cards, badges): sizes in mm or inches. */
    page: PageSpec.optional(),
    /** Page 1. */
    layers: z.array(Layer).max(200),
    /** Pages 2, 3, …: same size; a PDF has them all, raster outputs number them. */
    morePages: z
      .array(LayoutPage)
      .max(MAX_PAGES - 1)
      .optional(),
  })
  .strict();
export type Layout = z.infer<typeof Layout>;

/**
 * A layout's name, which requests give as `target`: one of the five ratios (each with its fixed
 * canvas size), or a name of the template's own for a print or custom-size layout (`a4`,
 * `badge`, `banner`).
 */
export const LayoutName = z
  .string()
  .regex(/^[a-z][A-Za-z0-9]{0,31}$/, 'a layout name like square, a4 or badgeBack');
export type LayoutName = z.infer<typeof LayoutName>;

const VariableCommon = {
  name: VariableName,
  label: z.string().max(120).optional(),
  description: z.string().max(500).optional(),
  required: z.boolean().default(false),
  bindsTo: BrandRole.nullable().optional(),
};

export const NumberFormat = z
  .object({
    style: z.enum(['decimal', 'currency', 'percent']).default('decimal'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    minimumFractionDigits: z.number().int().min(0).max(10).optional(),
    maximumFractionDigits: z.number().int().min(0).max(10).optional(),
    useGrouping: z.boolean().optional(),
    /** Text around the formatted number, e.g. "-" + "%" for a discount. */
    prefix: z.string().max(20).optional(),
    suffix: z.string().max(20).optional(),
    /** Format 2: `compact` writes 12,5 tỷ / 990K (vi-VN) or 12.5M / 990K (en). */
    notation: z.enum(['standard', 'compact']).optional(),
  })
  .strict();
export type NumberFormat = z.infer<typeof NumberFormat>;

/**
 * What a value that must never be cut carries: a person's `name`, a `phone`, a `code`
 * (voucher, SKU, ticket id), a `price` or a `figure`. Layers showing it shrink, wrap or get
 * room, never "…"; its words are kept on one line when they fit (see docs, "Critical values").
 */
export const CRITICAL_KINDS = ['name', 'phone', 'code', 'price', 'figure'] as const;
export const CriticalKind = z.enum(CRITICAL_KINDS);
export type CriticalKind = z.infer<typeof CriticalKind>;

export const Locale = z.string().regex(/^[a-z]{2,3}(-[A-Z]{2})?$/, 'a locale like vi-VN or en-US');

export const Variable = z.discriminatedUnion('type', [
  z
    .object({
      ...VariableCommon,
      type: z.literal('text'),
      default: z.string().optional(),
      maxLength: z.number().int().positive().optional(),
      critical: CriticalKind.optional(),
    })
    .strict(),
  z
    .object({
      ...VariableCommon,
      type: z.literal('longText'),
      default: z.string().optional(),
      maxLength: z.number().int().positive().optional(),
    })
    .strict(),
  z
    .object({ ...VariableCommon, type: z.literal('colour'), default: HexColour.optional() })
    .strict(),
  z
    .object({
      ...VariableCommon,
      type: z.literal('image'),
      default: z.string().optional(),
      /** Format 2: the subject of the sample (or default) image; other images carry none. */
      keep: KeepBox.optional(),
    })
    .strict(),
  z
    .object({
      ...VariableCommon,
      type: z.literal('number'),
      default: z.number().optional(),
      min: z.number().optional(),
      max: z.number().optional(),
      format: NumberFormat.optional(),
      locale: Locale.optional(),
      critical: CriticalKind.optional(),
    })
    .strict(),
  z
    .object({
      ...VariableCommon,
      type: z.literal('date'),
      /** ISO date (YYYY-MM-DD). */
      default: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/)
        .optional(),
      /** Pattern with tokens d dd M MM MMM MMMM yy yyyy EEE EEEE, e.g. dd/MM/yyyy. */
      format: z.string().max(40).optional(),
      locale: Locale.optional(),
    })
    .strict(),
  z
    .object({
      ...VariableCommon,
      type: z.literal('enum'),
      default: z.string().optional(),
      options: z
        .array(z.object({ value: z.string().min(1), label: z.string() }).strict())
        .min(1)
        .max(100),
    })
    .strict(),
  z
    .object({
      ...VariableCommon,
      type: z.literal('list'),
      default: z.array(z.string()).optional(),
      maxItems: z.number().int().positive().max(50).optional(),
    })
    .strict(),
]);
export type Variable = z.infer<typeof Variable>;

export const Market = z.enum(['global', 'vietnam']);
export type Market = z.infer<typeof Market>;

export const TemplateId = z
  .string()
  .regex(/^(tmpl|wtpl)_[a-z0-9_]{1,64}$/, 'a template id like tmpl_tet_sale');

export const Template = z
  .object({
    $schema: z.string().optional(),
    schemaVersion: z.union([z.literal(1), z.literal(2)]),
    id: TemplateId,
    name: z.string().min(1).max(120),
    description: z.string().max(1000).optional(),
    category: z.string().min(1).max(60),
    subCategory: z.string().min(1).max(60),
    market: Market,
    /** ISO date; the catalog's sort=newest uses it. */
    createdAt: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** Default locale for number and date variables. */
    locale: Locale.default('en-US'),
    tags: z.array(z.string().max(40)).max(20).default([]),
    variables: z.array(Variable).max(100),
    /** Values used for the thumbnail and as the "sample row" of template-fields. */
    sampleValues: z.record(z.string(), z.unknown()).default({}),
    /** The five ratios, and print or custom-size layouts under names of their own. */
    layouts: z.record(LayoutName, Layout),
    /**
     * The layout the app opens first and batches start on: a badge's print layout rather than
     * its square social image. Absent: the first ratio.
     */
    primaryLayout: LayoutName.optional(),
  })
  .strict();
export type Template = z.infer<typeof Template>;
export type TemplateInput = z.input<typeof Template>;
