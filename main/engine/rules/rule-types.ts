import type { LayoutName, PageSpec } from '../../../shared/template-format.js';
import type { PreparedImage } from '../layers/image-layer.js';
import type { TextLayerReport } from '../../render/render-protocol.js';
import type { DrawContext } from '../draw-context.js';
import type { DrawnLayer } from '../stack-layout.js';

/** The rules a render is checked against after fitting (docs/templates.md, "Rules"). */
export const RULE_CODES = [
  'text-too-small',
  'story-safe-zone',
  'qr-too-dense',
  'qr-placement',
  'barcode-too-dense',
  'barcode-too-short',
  'caps-leading',
  'subject-cropped',
  'critical-cut',
  'art-without-bleed',
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/** One broken rule: which layer, and what to change. */
export interface RuleViolation {
  rule: RuleCode;
  /** The layer's id (a stack's child by its own id). */
  layer: string;
  /** Page number from 1 (multi-page layouts). */
  page: number;
  message: string;
}

/** What a rule sees of one drawn page: its layers as placed, and what fitting made of them. */
export interface RulePage {
  ratio: LayoutName;
  width: number;
  height: number;
  /** A print layout's physical size and DPI; absent on screen layouts. */
  print?: PageSpec;
  page: number;
  layers: DrawnLayer[];
  reports: Map<string, TextLayerReport>;
  images: Map<string, PreparedImage | null>;
  dc: DrawContext;
}

export type Rule = (page: RulePage) => RuleViolation[];
