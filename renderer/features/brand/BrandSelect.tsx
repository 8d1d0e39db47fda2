import type { ReactElement } from 'react';
import type { Brand } from '../../api/types';
import { Field } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { brandName } from './brand-name';

/**
 * Which brand a render or a batch uses. Shown only when there is a choice: with one brand the
 * default is the only possible answer.
 */
export function BrandSelect({
  brands,
  value,
  onChange,
}: {
  brands: Brand[] | null;
  /** The chosen brand id; null means the default brand. */
  value: string | null;
  onChange: (id: string | null) => void;
}): ReactElement | null {
  const t = useT();
  if (!brands || brands.length < 2) return null;
  const fallback = brands.find((b) => b.isDefault);
  return (
    <Field label={t('brandKit.choose')} hint={t('brandKit.choose.hint')}>
      {({ id, describedBy }) => (
        <select
          id={id}
          className="select"
          data-testid="brand-select"
          aria-describedby={describedBy}
          value={value ?? fallback?.id ?? ''}
          onChange={(e) => onChange(e.target.value === fallback?.id ? null : e.target.value)}
        >
          {brands.map((b) => (
            <option key={b.id} value={b.id}>
              {b.isDefault ? t('brandKit.choose.default', { name: brandName(b, t) }) : b.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
