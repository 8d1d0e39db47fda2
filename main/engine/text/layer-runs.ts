import type { TextLayer } from '../../../shared/template-format.js';
import type { TextStyleSpec } from '../fit-text.js';
import { transformCase } from '../text-case.js';
import type { RichSpec } from './rich-text.js';
import { isRightToLeft } from './text-direction.js';
import { parseMarkup, PLAIN_STYLE, splitCurrency, type Run } from './text-runs.js';

/**
 * A format 2 text layer's text as styled runs: markup read when the layer asks for it (after
 * placeholders are filled, so values may carry markup too), then the case transform and NFC
 * applied to the text of each run, then currency symbols split off when they have a size of
 * their own.
 */
export function layerRuns(layer: TextLayer, filled: string, locale: string): Run[] {
  let runs = layer.markup ? parseMarkup(filled) : [{ text: filled, style: PLAIN_STYLE }];
  // Each run is transformed knowing the character before it, so "super**sale**" capitalises
  // to "Supersale", not "SuperSale".
  let before = '';
  runs = runs.map((run) => {
    const transformed = transformCase(before + run.text, layer.transform, locale).slice(
      before.length,
    );
    before = Array.from(run.text).pop() ?? before;
    return { text: transformed.normalize('NFC'), style: run.style };
  });
  if (layer.currencyScale !== undefined && layer.currencyScale < 1) runs = splitCurrency(runs);
  return runs;
}

export function richSpecOf(layer: TextLayer, spec: TextStyleSpec, text: string): RichSpec {
  return {
    ...spec,
    wrap: layer.wrap ?? 'balanced',
    decoration: layer.decoration ?? 'none',
    currencyScale: layer.currencyScale ?? 1,
    currencyRaise: layer.currencyRaise === true,
    rtl: isRightToLeft(text, layer.direction ?? 'auto'),
  };
}
