import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactElement,
} from 'react';
import { foldForSearch } from '../../../shared/fold-text';
import type { CatalogListItem } from '../../api/types';
import { Icon } from '../../components/Icon';
import { Button } from '../../components/ui';
import { useLanguage, useT } from '../../i18n/i18n';
import { taxonomyLabel } from '../../i18n/taxonomy';

interface Group {
  label: string;
  items: CatalogListItem[];
}

/**
 * The wizard's template choice: thumbnails in a list box (arrow keys move, Enter or Space
 * chooses, Home/End jump), narrowed by a search; once chosen it folds to the one card.
 */
export function TemplatePicker({
  value,
  valueName,
  groups,
  onPick,
}: {
  value: string | null;
  /** The chosen template's name while the lists load. */
  valueName?: string;
  groups: Group[];
  onPick: (id: string) => void;
}): ReactElement {
  const t = useT();
  const language = useLanguage();
  const labelId = useId();
  const [open, setOpen] = useState(value === null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState<string | null>(value);
  const listRef = useRef<HTMLDivElement>(null);
  const changeRef = useRef<HTMLButtonElement>(null);
  const refocus = useRef<'list' | 'change' | null>(null);

  const folded = foldForSearch(query.trim());
  const shown = useMemo(
    () =>
      groups
        .map((group) => ({
          ...group,
          items: group.items.filter(
            (item) =>
              !folded ||
              foldForSearch(
                `${item.name} ${taxonomyLabel(language, item.category)} ${taxonomyLabel(language, item.subCategory)} ${item.category}`,
              ).includes(folded),
          ),
        }))
        .filter((group) => group.items.length > 0),
    [groups, folded, language],
  );
  const flat = shown.flatMap((g) => g.items);
  const chosen = groups.flatMap((g) => g.items).find((item) => item.id === value);
  // The option that takes Tab: the active one if shown, else the chosen one, else the first.
  const tabStop =
    flat.find((i) => i.id === active)?.id ?? flat.find((i) => i.id === value)?.id ?? flat[0]?.id;

  // A template chosen elsewhere (a card's Batch, Edit mapping and rerun) folds the list.
  useEffect(() => {
    if (value) setOpen(false);
  }, [value]);

  useEffect(() => {
    if (refocus.current === 'change') changeRef.current?.focus();
    if (refocus.current === 'list')
      listRef.current?.querySelector<HTMLElement>('[role="option"][tabindex="0"]')?.focus();
    refocus.current = null;
  }, [open]);

  const focusOption = (id: string) => {
    setActive(id);
    listRef.current?.querySelector<HTMLElement>(`[data-template-id="${CSS.escape(id)}"]`)?.focus();
  };
  const pick = (id: string) => {
    onPick(id);
    refocus.current = 'change';
    setOpen(false);
    setQuery('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = flat.findIndex((i) => i.id === tabStop);
    if (index < 0) return;
    const options = Array.from(
      listRef.current?.querySelectorAll<HTMLElement>('[role="option"]') ?? [],
    );
    // Cards per row, from the layout: up and down move by a row.
    const top = options[0]?.offsetTop;
    const columns = Math.max(1, options.filter((o) => o.offsetTop === top).length);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      ArrowDown: index + columns,
      ArrowUp: index - columns,
      Home: 0,
      End: flat.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      const next = flat[Math.min(flat.length - 1, Math.max(0, moves[event.key]!))];
      if (next) focusOption(next.id);
      return;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      const item = flat[index];
      if (item) pick(item.id);
    }
  };

  if (!open && value) {
    return (
      <div className="picker-chosen" data-testid="template-chosen">
        <span className="field-label" id={labelId}>
          {t('wizard.template')}
        </span>
        <div className="picker-chosen-card">
          <div className="thumb picker-thumb">
            {chosen ? <img src={chosen.thumbnail} alt="" draggable={false} /> : null}
          </div>
          <div className="template-meta grow">
            <div className="template-name">{chosen?.name ?? valueName ?? value}</div>
            {chosen ? (
              <div className="template-sub">
                {taxonomyLabel(language, chosen.category)} ·{' '}
                {taxonomyLabel(language, chosen.subCategory)}
              </div>
            ) : null}
          </div>
          <button
            ref={changeRef}
            type="button"
            className="btn sm"
            onClick={() => {
              refocus.current = 'list';
              setOpen(true);
            }}
          >
            <Icon name="grid" />
            {t('wizard.template.change')}
          </button>
        </div>
      </div>
    );
  }

  return (
    <div className="picker" data-testid="template-picker">
      <div className="row between wrap">
        <span className="field-label" id={labelId}>
          {t('wizard.template.choose')}
        </span>
        <div className="row">
          <label className="search-box picker-search">
            <Icon name="search" />
            <span className="visually-hidden">{t('wizard.template.search')}</span>
            <input
              type="search"
              className="input"
              placeholder={t('wizard.template.search')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </label>
          {value ? (
            <Button
              size="sm"
              variant="ghost"
              onClick={() => {
                refocus.current = 'change';
                setOpen(false);
              }}
            >
              {t('common.cancel')}
            </Button>
          ) : null}
        </div>
      </div>
      <div
        ref={listRef}
        className="picker-list"
        role="listbox"
        aria-labelledby={labelId}
        onKeyDown={onKeyDown}
      >
        {shown.map((group) => (
          <div key={group.label} role="group" aria-label={group.label} className="picker-group">
            <div className="picker-group-label small muted" aria-hidden>
              {group.label}
            </div>
            <div className="picker-grid">
              {group.items.map((item) => (
                <div
                  key={item.id}
                  role="option"
                  aria-selected={item.id === value}
                  tabIndex={item.id === tabStop ? 0 : -1}
                  className="picker-option"
                  data-template-id={item.id}
                  onClick={() => pick(item.id)}
                  onFocus={() => setActive(item.id)}
                >
                  <div className="thumb picker-thumb">
                    <img src={item.thumbnail} alt="" loading="lazy" draggable={false} />
                  </div>
                  <div className="template-meta">
                    <div className="template-name">{item.name}</div>
                    <div className="template-sub">{taxonomyLabel(language, item.category)}</div>
                  </div>
                  {item.id === value ? (
                    <span className="picker-check" aria-hidden>
                      <Icon name="check" size={14} />
                    </span>
                  ) : null}
                </div>
              ))}
            </div>
          </div>
        ))}
        {flat.length === 0 ? (
          <p className="muted small" role="status">
            {t('wizard.template.none')}
          </p>
        ) : null}
      </div>
    </div>
  );
}
