import { Fragment, type ReactElement } from 'react';
import type { Layer } from '../../api/types';
import { useT } from '../../i18n/i18n';
import type { VietQrSource } from '../../../shared/template-format';
import { SelectField, TextField } from './inspector-fields';
import { useEditorStore } from './editor-store';
import { useLayerEdit } from './use-layer-edit';

type QrLayer = Extract<Layer, { kind: 'qr' }>;
type FieldName = keyof VietQrSource;
type FieldValue = NonNullable<VietQrSource[FieldName]>;

/** Marks "written here" among the variable names (which start with a letter). */
const WRITTEN = '';

const LABELS = {
  bank: 'editor.vietqr.bank',
  account: 'editor.vietqr.account',
  amount: 'editor.vietqr.amount',
  message: 'editor.vietqr.message',
} as const;

/**
 * A VietQR's bank, account, amount and message, each taken from a variable (its own value: a
 * bank list's BIN, an unformatted amount) or written here.
 */
export function VietQrFields({
  layer,
  source,
}: {
  layer: QrLayer;
  source: VietQrSource;
}): ReactElement {
  const t = useT();
  const { update } = useLayerEdit(layer);
  const variables = useEditorStore((s) => s.draft?.variables) ?? [];
  const names = variables
    .filter((v) => v.type !== 'image' && v.type !== 'list' && v.type !== 'colour')
    .map((v) => ({ value: v.name, label: v.label ?? v.name }));
  const set = (field: FieldName, value: FieldValue | undefined) => {
    const next: VietQrSource = { ...source };
    if (value === undefined) delete next[field as 'amount' | 'message'];
    else Object.assign(next, { [field]: value });
    update({ value: { vietqr: next } }, `field-${layer.id}-vietqr-${field}`);
  };
  return (
    <>
      <p className="small muted ed-panel-note wide">{t('editor.vietqr.hint')}</p>
      {(['bank', 'account', 'amount', 'message'] as const).map((field) => {
        const value = source[field];
        const bound = typeof value === 'object' ? value.var : WRITTEN;
        const optional = field === 'amount' || field === 'message';
        return (
          <Fragment key={field}>
            <SelectField
              label={t(LABELS[field])}
              value={bound}
              wide
              options={[{ value: WRITTEN, label: t('editor.vietqr.written') }, ...names]}
              onChange={(name) =>
                set(field, name === WRITTEN ? (optional ? undefined : '') : { var: name })
              }
            />
            {bound === WRITTEN ? (
              <TextField
                label={t('editor.vietqr.writtenValue', { field: t(LABELS[field]) })}
                value={value === undefined || typeof value === 'object' ? '' : String(value)}
                mono
                onChange={(text) => set(field, optional && text === '' ? undefined : text)}
              />
            ) : null}
          </Fragment>
        );
      })}
    </>
  );
}
