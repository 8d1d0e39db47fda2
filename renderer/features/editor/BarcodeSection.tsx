import type { ReactElement } from 'react';
import type { Layer } from '../../api/types';
import { useT } from '../../i18n/i18n';
import type { BarcodeSymbology } from '../../../shared/template-format';
import { BARCODE_SYMBOLOGIES } from '../../../shared/barcode-symbologies';
import { CheckField, Section, SelectField, TextField } from './inspector-fields';
import { CodeColourFields } from './LayerSections';
import { useLayerEdit } from './use-layer-edit';

type BarcodeLayer = Extract<Layer, { kind: 'barcode' }>;

/** What users call each symbology; `gtin` is worded per language. */
const LABELS: Record<Exclude<BarcodeSymbology, 'gtin'>, string> = {
  ean13: 'EAN-13',
  ean8: 'EAN-8',
  upca: 'UPC-A',
  upce: 'UPC-E',
  code128: 'Code 128',
  'gs1-128': 'GS1-128',
  code39: 'Code 39',
  itf14: 'ITF-14',
  datamatrix: 'DataMatrix',
  'gs1-datamatrix': 'GS1 DataMatrix',
  pdf417: 'PDF417',
  azteccode: 'Aztec',
};

/** The 2D codes, which print no text under them unless asked (as the engine draws them). */
const MATRIX: ReadonlySet<BarcodeSymbology> = new Set([
  'datamatrix',
  'gs1-datamatrix',
  'pdf417',
  'azteccode',
]);

/** Which hint says what a symbology's value takes. */
function hintKey(symbology: BarcodeSymbology) {
  switch (symbology) {
    case 'gtin':
      return 'editor.barcode.hint.gtin' as const;
    case 'ean13':
    case 'ean8':
    case 'upca':
    case 'upce':
    case 'itf14':
      return 'editor.barcode.hint.digits' as const;
    case 'code128':
      return 'editor.barcode.hint.code128' as const;
    case 'code39':
      return 'editor.barcode.hint.code39' as const;
    case 'gs1-128':
    case 'gs1-datamatrix':
      return 'editor.barcode.hint.gs1' as const;
    default:
      return 'editor.barcode.hint.text' as const;
  }
}

/** A barcode's symbology, value, colours and human-readable text. */
export function BarcodeSection({ layer }: { layer: BarcodeLayer }): ReactElement {
  const t = useT();
  const { update, error } = useLayerEdit(layer);
  const options = BARCODE_SYMBOLOGIES.map((value) => ({
    value,
    label: value === 'gtin' ? t('editor.barcode.gtin') : LABELS[value],
  }));
  return (
    <Section title={t('editor.section.barcode')}>
      <SelectField
        label={t('editor.barcode.symbology')}
        value={layer.symbology}
        options={options}
        error={error('symbology')}
        wide
        onChange={(symbology) => update({ symbology })}
      />
      <TextField
        label={t('editor.barcode.value')}
        value={layer.value}
        mono
        error={error('value')}
        hint={`${t(hintKey(layer.symbology))} ${t('editor.text.hint')}`}
        onChange={(value) => update({ value })}
      />
      <CodeColourFields layer={layer} foregroundLabel={t('editor.barcode.foreground')} />
      {/* The whole row, so the label does not wrap beside an empty column. */}
      <div className="wide">
        <CheckField
          label={t('editor.barcode.humanReadable')}
          checked={layer.humanReadable ?? !MATRIX.has(layer.symbology)}
          onChange={(humanReadable) => update({ humanReadable })}
        />
      </div>
    </Section>
  );
}
