import type { Problem } from '../../shared/errors.js';
import { placedLayers } from '../../shared/layout-pages.js';
import type { ListLayer, Template, TextLayer } from '../../shared/template-format.js';
import { coversCodePoint } from '../engine/font-coverage.js';
import { DEFAULT_FAMILY } from '../engine/font-families.js';
import { PLACEHOLDER } from '../engine/format-value.js';
import { transformCase } from '../engine/text-case.js';
import type { CustomFonts } from './custom-fonts.js';
import { notInstalledMessage } from './custom-fonts.js';

/** How many missing characters a message lists before it says "and N more". */
const LISTED = 12;

/**
 * A workspace-template check: every text and list layer must be drawable in its font (a bundled
 * one with the default family behind it), judged on the template's sample text; and a literal
 * family must be installed at all.
 * Layers whose family is a brand font variable are the brand profile's business, not this one's.
 */
export function fontCoverageCheck(fonts: CustomFonts): (template: Template) => Problem[] {
  return (template) => {
    const problems: Problem[] = [];
    for (const [ratio, layout] of Object.entries(template.layouts)) {
      placedLayers(ratio, layout).forEach(({ layer, path: layerPath }) => {
        if (layer.kind !== 'text' && layer.kind !== 'list') return;
        const family = layer.font.family;
        if (typeof family !== 'string') return;
        const path = `${layerPath}.font.family`;
        const bundled = fonts.bundledCoverage(family);
        // A bundled family falls back to the default family, as the engine draws it.
        const coverage = bundled
          ? [bundled, fonts.bundledCoverage(DEFAULT_FAMILY) ?? []]
          : [fonts.faceFor(family, layer.font.weight, layer.font.style)?.coverage];
        if (!coverage[0]) {
          problems.push({ path, message: notInstalledMessage(family) });
          return;
        }
        const missing = new Set<string>();
        for (const char of sampleText(template, layer)) {
          if (missing.has(char) || drawnElsewhere(char)) continue;
          const codePoint = char.codePointAt(0)!;
          if (!coverage.some((ranges) => ranges && coversCodePoint(ranges, codePoint)))
            missing.add(char);
        }
        if (missing.size > 0) problems.push({ path, message: missingMessage(family, missing) });
      });
    }
    return problems;
  };
}

/** The text a layer shows with the template's sample values, as the engine would case it. */
function sampleText(template: Template, layer: TextLayer | ListLayer): string {
  const raw =
    layer.kind === 'text'
      ? layer.text.replace(PLACEHOLDER, (_whole, name: string) =>
          sampleString(template.sampleValues[name]),
        )
      : `${layer.bullet} ${sampleString(template.sampleValues[layer.items.var])}`;
  return transformCase(raw.normalize('NFC'), layer.transform, template.locale).normalize('NFC');
}

function sampleString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(sampleString).join('\n');
  return '';
}

/**
 * Characters no text font needs: spaces, controls and format characters draw nothing, and emoji
 * come from the bundled colour emoji font whatever the layer's family.
 */
function drawnElsewhere(char: string): boolean {
  return /^(?:\s|\p{Cc}|\p{Cf}|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|[\uFE00-\uFE0F\u20E3])$/u.test(
    char,
  );
}

function missingMessage(family: string, missing: Set<string>): string {
  const chars = [...missing];
  const listed = chars
    .slice(0, LISTED)
    .map((c) => `"${c}"`)
    .join(', ');
  const more = chars.length > LISTED ? ` and ${chars.length - LISTED} more` : '';
  return `${family} cannot draw ${listed}${more} in the sample text; choose a font that covers it or change the text`;
}
