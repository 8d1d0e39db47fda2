import { useId, type ReactElement } from 'react';
import type { Brand } from '../../api/types';
import { Icon } from '../../components/Icon';
import { Button } from '../../components/ui';
import { useT, type Translate } from '../../i18n/i18n';
import { BRAND_COLOURS } from './brand-colours';
import { brandName } from './brand-name';

/** The brands of the kit, the selected one highlighted, with the actions on the selected one. */
export function BrandList({
  brands,
  selectedId,
  dirty,
  onSelect,
  onCreate,
  onRename,
  onMakeDefault,
  onDelete,
}: {
  brands: Brand[];
  selectedId: string | null;
  /** The selected brand has unsaved changes (its row says so). */
  dirty: boolean;
  onSelect: (brand: Brand) => void;
  onCreate: () => void;
  onRename: (brand: Brand) => void;
  onMakeDefault: (brand: Brand) => void;
  onDelete: (brand: Brand) => void;
}): ReactElement {
  const t = useT();
  const hintId = useId();
  const selected = brands.find((b) => b.id === selectedId) ?? null;
  return (
    <section className="card kit-brands" aria-labelledby={`${hintId}-title`}>
      <div className="card-header">
        <h2 id={`${hintId}-title`}>{t('brandKit.list')}</h2>
        <Button size="sm" icon="plus" onClick={onCreate}>
          {t('brandKit.new')}
        </Button>
      </div>
      <ul className="kit-brand-list" data-testid="brand-list">
        {brands.map((brand) => {
          const current = brand.id === selectedId;
          return (
            <li key={brand.id}>
              <button
                type="button"
                className={`kit-brand${current ? ' selected' : ''}`}
                aria-current={current || undefined}
                // The visible words, in order (a name that differs from them confuses voice control).
                aria-label={
                  showsDefaultBadge(brand, t)
                    ? `${brandName(brand, t)} ${t('brandKit.default')}`
                    : brandName(brand, t)
                }
                onClick={() => onSelect(brand)}
              >
                <LogoThumb brand={brand} />
                <span className="kit-brand-text">
                  <span className="kit-brand-name">
                    <span className="kit-truncate">{brandName(brand, t)}</span>
                    {current && dirty ? (
                      <span className="kit-dirty-dot" title={t('brand.unsaved')} aria-hidden />
                    ) : null}
                  </span>
                  <Swatches brand={brand} />
                </span>
                {showsDefaultBadge(brand, t) ? (
                  <span className="badge accent plain">{t('brandKit.default')}</span>
                ) : null}
              </button>
            </li>
          );
        })}
      </ul>
      {selected ? (
        <div className="kit-brand-actions">
          <div
            className="row wrap"
            role="group"
            aria-label={t('brandKit.actions', { name: brandName(selected, t) })}
          >
            <Button size="sm" variant="ghost" icon="pencil" onClick={() => onRename(selected)}>
              {t('brandKit.rename')}
            </Button>
            {!selected.isDefault ? (
              <Button
                size="sm"
                variant="ghost"
                icon="check"
                onClick={() => onMakeDefault(selected)}
              >
                {t('brandKit.makeDefault')}
              </Button>
            ) : null}
            <Button
              size="sm"
              variant="ghost"
              icon="trash"
              className="kit-delete"
              disabled={selected.isDefault}
              aria-describedby={selected.isDefault ? hintId : undefined}
              onClick={() => onDelete(selected)}
            >
              {t('brandKit.delete')}
            </Button>
          </div>
          {selected.isDefault ? (
            <p className="small subtle" id={hintId}>
              <Icon name="info" size={12} /> {t('brandKit.delete.default')}
            </p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function LogoThumb({ brand }: { brand: Brand }): ReactElement {
  const logo = brand.profile.logo ?? brand.profile.logoDark;
  return (
    <span className={`kit-logo${!brand.profile.logo && logo ? ' dark' : ''}`} aria-hidden>
      {logo?.startsWith('data:image/') ? (
        <img src={logo} alt="" />
      ) : (
        <Icon name="image" size={14} />
      )}
    </span>
  );
}

function Swatches({ brand }: { brand: Brand }): ReactElement {
  const t = useT();
  const colours = BRAND_COLOURS.map((key) => brand.profile.colours[key]);
  return (
    <span
      className="kit-swatches"
      role="img"
      aria-label={t('brandKit.swatches', { name: brandName(brand, t) })}
    >
      {colours.map((colour, i) => (
        <span
          key={BRAND_COLOURS[i]}
          className={`kit-swatch${colour ? '' : ' unset'}`}
          style={colour ? { background: colour } : undefined}
          data-colour={colour ?? ''}
        />
      ))}
    </span>
  );
}

/** The built-in brand is already called Default: a Default badge beside it says nothing more. */
function showsDefaultBadge(brand: Parameters<typeof brandName>[0], t: Translate): boolean {
  return brand.isDefault && brandName(brand, t) !== t('brandKit.default');
}
