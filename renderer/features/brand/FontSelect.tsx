import type { ReactElement } from 'react';
import type { FontFamilyInfo } from '../../api/types';
import { Field } from '../../components/ui';
import { useT } from '../../i18n/i18n';

/** A brand font: one of the installed families (bundled or uploaded), or the template's own. */
export function FontSelect({
  label,
  value,
  families,
  error,
  onChange,
}: {
  label: string;
  value: string | null;
  families: FontFamilyInfo[];
  error: string | undefined;
  onChange: (family: string | null) => void;
}): ReactElement {
  const t = useT();
  const bundled = families.filter((f) => f.source === 'bundled');
  const custom = families.filter((f) => f.source === 'custom');
  // A family deleted since it was chosen stays visible, so the choice is not lost silently.
  const missing = value !== null && !families.some((f) => f.family === value);
  return (
    <Field label={label} error={error}>
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          className="select"
          value={value ?? ''}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          onChange={(e) => onChange(e.target.value || null)}
        >
          <option value="">{t('brand.font.default')}</option>
          {missing ? (
            <option value={value}>{t('brandKit.font.missing', { family: value })}</option>
          ) : null}
          {bundled.length > 0 ? (
            <optgroup label={t('brandKit.font.bundled')}>
              {bundled.map((f) => (
                <option key={f.family} value={f.family}>
                  {f.family}
                </option>
              ))}
            </optgroup>
          ) : null}
          {custom.length > 0 ? (
            <optgroup label={t('brandKit.font.custom')}>
              {custom.map((f) => (
                <option key={f.family} value={f.family}>
                  {f.family}
                </option>
              ))}
            </optgroup>
          ) : null}
        </select>
      )}
    </Field>
  );
}
