import { useDeferredValue, useEffect, useMemo, useRef, type ReactElement } from 'react';
import { foldForSearch } from '../../../shared/fold-text';
import type { CatalogListItem, Ratio } from '../../api/types';
import { Icon } from '../../components/Icon';
import { BrandKitInvite } from '../brand/BrandKitInvite';
import { AppLink } from '../../components/Sidebar';
import { Button, EmptyState, ErrorBanner } from '../../components/ui';
import { useLanguage, useT, type MessageKey } from '../../i18n/i18n';
import { taxonomyLabel } from '../../i18n/taxonomy';
import { useAppStore } from '../../stores/app-store';
import type { CatalogFilters } from '../../stores/data-slices';
import { ServiceBadge } from '../../components/ServiceBadge';

export function CatalogScreen(): ReactElement {
  const t = useT();
  const language = useLanguage();
  const catalog = useAppStore((s) => s.catalog);
  const error = useAppStore((s) => s.catalogError);
  const taxonomy = useAppStore((s) => s.taxonomy);
  const filters = useAppStore((s) => s.catalogFilters);
  const setFilters = useAppStore((s) => s.setCatalogFilters);
  const load = useAppStore((s) => s.loadCatalog);
  const searchRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void load();
  }, [load]);

  // "/" focuses search, like most desktop tools.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.key === '/' && !target?.closest('input, textarea, select, [contenteditable]')) {
        event.preventDefault();
        searchRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const search = useDeferredValue(filters.search);
  const items = useMemo(
    () => filterCatalog(catalog ?? [], { ...filters, search }),
    [catalog, filters, search],
  );
  const subCategories =
    taxonomy?.categories.find((c) => c.name === filters.category)?.subCategories ?? [];
  const filtered =
    filters.search !== '' ||
    filters.category !== '' ||
    filters.market !== '' ||
    filters.subCategory !== '';

  return (
    <div className="page wide">
      <header className="page-header">
        <div>
          <h1>{t('catalog.title')}</h1>
          <p>{t('catalog.subtitle')}</p>
        </div>
        <ServiceBadge />
      </header>

      <div className="toolbar" role="search">
        <label className="search-box">
          <Icon name="search" />
          <span className="visually-hidden">{t('catalog.search')}</span>
          <input
            ref={searchRef}
            type="search"
            className="input"
            placeholder={t('catalog.search.placeholder')}
            value={filters.search}
            onChange={(e) => setFilters({ search: e.target.value })}
          />
          <kbd aria-hidden>/</kbd>
        </label>
        <FilterSelect
          label={t('catalog.category')}
          value={filters.category}
          onChange={(category) => setFilters({ category })}
          options={[
            { value: '', label: t('catalog.allCategories') },
            ...(taxonomy?.categories ?? []).map((c) => ({
              value: c.name,
              label: taxonomyLabel(language, c.name),
            })),
          ]}
        />
        <FilterSelect
          label={t('catalog.subCategory')}
          value={filters.subCategory}
          disabled={subCategories.length === 0}
          onChange={(subCategory) => setFilters({ subCategory })}
          options={[
            { value: '', label: t('catalog.allSubCategories') },
            ...subCategories.map((name) => ({ value: name, label: taxonomyLabel(language, name) })),
          ]}
        />
        <FilterSelect
          label={t('catalog.market')}
          value={filters.market}
          onChange={(market) => setFilters({ market: market as CatalogFilters['market'] })}
          options={[
            { value: '', label: t('catalog.allMarkets') },
            { value: 'global', label: t('market.global') },
            { value: 'vietnam', label: t('market.vietnam') },
          ]}
        />
        <FilterSelect
          label={t('catalog.sort')}
          value={filters.sort}
          onChange={(sort) => setFilters({ sort: sort as CatalogFilters['sort'] })}
          options={[
            { value: 'newest', label: t('catalog.sort.newest') },
            { value: 'name', label: t('catalog.sort.name') },
          ]}
        />
      </div>

      <BrandKitInvite />

      {error && !catalog ? (
        <ErrorBanner error={error} title={t('catalog.loadError')} onRetry={() => void load(true)} />
      ) : null}

      {catalog === null && !error ? (
        <div className="catalog-grid" aria-busy="true">
          {Array.from({ length: 8 }, (_, i) => (
            <div className="template-card" key={i} aria-hidden>
              <div className="thumb skeleton" />
              <div className="skeleton" style={{ height: 14, width: '60%', marginTop: 12 }} />
              <div className="skeleton" style={{ height: 12, width: '40%', marginTop: 8 }} />
            </div>
          ))}
        </div>
      ) : null}

      {catalog !== null ? (
        <>
          <div className="row between">
            <span className="muted" role="status" aria-live="polite">
              {t('catalog.count', { count: items.length })}
            </span>
            {filtered ? (
              <Button
                variant="ghost"
                size="sm"
                icon="x"
                onClick={() =>
                  setFilters({ search: '', category: '', subCategory: '', market: '' })
                }
              >
                {t('catalog.clear')}
              </Button>
            ) : null}
          </div>
          {items.length === 0 ? (
            <EmptyState icon="search" title={t('catalog.empty')}>
              {t('catalog.empty.detail')}
            </EmptyState>
          ) : (
            <ul className="catalog-grid" aria-label={t('catalog.title')}>
              {items.map((item) => (
                <TemplateCard key={item.id} item={item} />
              ))}
            </ul>
          )}
        </>
      ) : null}
    </div>
  );
}

export function filterCatalog(
  items: CatalogListItem[],
  filters: CatalogFilters,
): CatalogListItem[] {
  const words = foldForSearch(filters.search).split(/\s+/).filter(Boolean);
  const result = items.filter((item) => {
    if (filters.category && item.category !== filters.category) return false;
    if (filters.subCategory && item.subCategory !== filters.subCategory) return false;
    if (filters.market && item.market !== filters.market) return false;
    if (words.length === 0) return true;
    // The Vietnamese names of the category find it too ("khuyến mãi" finds Sale).
    const haystack = foldForSearch(
      `${item.name} ${item.category} ${item.subCategory} ${item.id} ` +
        `${taxonomyLabel('vi', item.category)} ${taxonomyLabel('vi', item.subCategory)}`,
    );
    return words.every((word) => haystack.includes(word));
  });
  if (filters.sort === 'name') return result.sort((a, b) => a.name.localeCompare(b.name));
  return result.sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || a.name.localeCompare(b.name),
  );
}

function FilterSelect({
  label,
  value,
  options,
  onChange,
  disabled,
}: {
  label: string;
  value: string;
  options: { value: string; label: string }[];
  onChange: (value: string) => void;
  disabled?: boolean;
}): ReactElement {
  return (
    <label className="filter">
      <span className="visually-hidden">{label}</span>
      <select
        className="select"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-label={label}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ratioKey(ratio: Ratio): MessageKey {
  return `ratio.${ratio}` as MessageKey;
}

function TemplateCard({ item }: { item: CatalogListItem }): ReactElement {
  const t = useT();
  const language = useLanguage();
  return (
    <li className="template-card">
      <AppLink to={{ name: 'template', id: item.id }} className="template-link">
        <div className="thumb">
          <img src={item.thumbnail} alt="" loading="lazy" decoding="async" draggable={false} />
        </div>
        <div className="template-meta">
          <div className="template-name">{item.name}</div>
          <div className="template-sub">
            {taxonomyLabel(language, item.category)} · {taxonomyLabel(language, item.subCategory)}
            {item.market === 'vietnam' ? <span className="chip">{t('market.vietnam')}</span> : null}
          </div>
          <div
            className="ratio-list"
            role="img"
            aria-label={item.ratios.map((r) => t(ratioKey(r))).join(', ')}
          >
            {item.ratios.map((ratio) => (
              <span key={ratio} className={`ratio-glyph r-${ratio}`} title={t(ratioKey(ratio))} />
            ))}
          </div>
        </div>
      </AppLink>
    </li>
  );
}
