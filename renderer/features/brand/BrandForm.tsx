import { useCallback, useEffect, useMemo, useState, type ReactElement } from 'react';
import { isApiError } from '../../api/http';
import type { Brand, BrandProfile, FontFamilyInfo } from '../../api/types';
import { Icon } from '../../components/Icon';
import { ColourInput } from '../../components/inputs';
import { Button, ErrorBanner, Field } from '../../components/ui';
import { useT, type MessageKey } from '../../i18n/i18n';
import { BRAND_COLOURS } from './brand-colours';
import { FontSelect } from './FontSelect';
import { LogoField } from './LogoField';
import { brandName } from './brand-name';

/**
 * The selected brand's profile as a draft. Mount it with `key={brand.id}`: switching brands
 * starts a new draft (the screen asks first when this one has unsaved changes).
 */
export function BrandForm({
  brand,
  families,
  onSave,
  onDirtyChange,
  onDraftChange,
}: {
  brand: Brand;
  families: FontFamilyInfo[];
  /** Resolves with the profile as the server saved it. */
  onSave: (profile: BrandProfile) => Promise<BrandProfile>;
  onDirtyChange: (dirty: boolean) => void;
  onDraftChange?: (draft: { id: string; profile: BrandProfile }) => void;
}): ReactElement {
  const t = useT();
  const saved = brand.profile;
  const [draft, setDraft] = useState<BrandProfile>(saved);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  // Colour fields whose typed text is not a colour yet: saving would silently drop the text.
  const [resets, setResets] = useState(0);
  const [badColours, setBadColours] = useState<ReadonlySet<string>>(new Set());
  const colourValidity = useCallback(
    (key: string) => (valid: boolean) =>
      setBadColours((current) => {
        if (valid !== current.has(key)) return current;
        const next = new Set(current);
        if (valid) next.delete(key);
        else next.add(key);
        return next;
      }),
    [],
  );
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved) || badColours.size > 0;
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);
  useEffect(
    () => onDraftChange?.({ id: brand.id, profile: draft }),
    [brand.id, draft, onDraftChange],
  );
  const problem = (path: string) =>
    isApiError(error) ? error.problemFor(`profile.${path}`) : undefined;
  const set = (patch: Partial<BrandProfile>) => setDraft((d) => ({ ...d, ...patch }));
  const validityOf = useMemo(
    () => Object.fromEntries(BRAND_COLOURS.map((key) => [key, colourValidity(key)])),
    [colourValidity],
  );

  const submit = async () => {
    setSaving(true);
    setError(null);
    try {
      setDraft(await onSave(draft));
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="stack gap-4 kit-form"
      aria-label={t('brandKit.editing', { name: brandName(brand, t) })}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {error ? <ErrorBanner error={error} /> : null}
      <section className="card">
        <div className="card-header">
          <h2>{t('brand.identity')}</h2>
        </div>
        <div className="card-body stack gap-4">
          <Field label={t('brandKit.profileName')} error={problem('name')}>
            {({ id, invalid }) => (
              <input
                id={id}
                className="input"
                aria-invalid={invalid || undefined}
                value={draft.name}
                maxLength={120}
                onChange={(e) => set({ name: e.target.value })}
              />
            )}
          </Field>
          <div className="field-row">
            <Field label={t('brand.tagline')} optional error={problem('tagline')}>
              {({ id }) => (
                <input
                  id={id}
                  className="input"
                  value={draft.tagline}
                  maxLength={200}
                  onChange={(e) => set({ tagline: e.target.value })}
                />
              )}
            </Field>
            <Field label={t('brand.website')} optional error={problem('website')}>
              {({ id }) => (
                <input
                  id={id}
                  className="input"
                  value={draft.website}
                  maxLength={200}
                  placeholder="example.com"
                  onChange={(e) => set({ website: e.target.value })}
                />
              )}
            </Field>
          </div>
        </div>
      </section>

      <section className="card">
        <div className="card-header">
          <h2>{t('brand.logos')}</h2>
        </div>
        <div className="card-body field-row">
          <LogoField
            label={t('brand.logo')}
            value={draft.logo}
            error={problem('logo')}
            onChange={(logo) => set({ logo })}
          />
          <LogoField
            label={t('brand.logoDark')}
            dark
            value={draft.logoDark}
            error={problem('logoDark')}
            onChange={(logoDark) => set({ logoDark })}
          />
        </div>
      </section>

      <section className="card">
        <div className="card-header">
          <h2>{t('brand.colours')}</h2>
        </div>
        {/* Remounted on discard: a field may hold typed text that never became a colour. */}
        <div className="card-body colour-grid" key={resets}>
          {BRAND_COLOURS.map((key) => {
            const label = t(`brand.colour.${key}` as MessageKey);
            const value = draft.colours[key];
            const setColour = (colour: string | null) =>
              setDraft((d) => ({ ...d, colours: { ...d.colours, [key]: colour } }));
            return (
              <Field
                key={key}
                label={label}
                error={problem(`colours.${key}`)}
                aside={
                  value ? (
                    <button
                      type="button"
                      className="btn ghost sm icon"
                      onClick={() => setColour(null)}
                      aria-label={t('brand.colour.clear', { label })}
                    >
                      <Icon name="x" size={12} />
                    </button>
                  ) : (
                    <span className="small subtle">{t('brand.colour.unset')}</span>
                  )
                }
              >
                {({ id, describedBy, invalid }) => (
                  <ColourInput
                    id={id}
                    label={label}
                    value={value ?? ''}
                    describedBy={describedBy}
                    invalid={invalid}
                    onChange={setColour}
                    onValidityChange={validityOf[key]}
                  />
                )}
              </Field>
            );
          })}
        </div>
      </section>

      <section className="card">
        <div className="card-header">
          <h2>{t('brand.fonts')}</h2>
        </div>
        <div className="card-body field-row">
          {(['heading', 'body'] as const).map((role) => (
            <FontSelect
              key={role}
              label={t(`brand.font.${role}`)}
              value={draft.fonts[role]}
              families={families}
              error={problem(`fonts.${role}`)}
              onChange={(family) =>
                setDraft((d) => ({ ...d, fonts: { ...d.fonts, [role]: family } }))
              }
            />
          ))}
        </div>
      </section>

      <div className="save-bar" data-testid="brand-save-bar">
        <span
          className={`small row ${dirty ? 'kit-unsaved' : 'muted'}`}
          role="status"
          data-state={dirty ? 'unsaved' : 'saved'}
        >
          <Icon name={dirty ? 'alert' : 'checkCircle'} size={14} />
          {badColours.size > 0
            ? t('brandKit.fixColours')
            : dirty
              ? t('brand.unsaved')
              : t('brandKit.allSaved')}
        </span>
        <div className="row">
          {dirty ? (
            <Button
              variant="ghost"
              onClick={() => {
                setDraft(saved);
                setResets((n) => n + 1);
              }}
              disabled={saving}
            >
              {t('brandKit.discard.button')}
            </Button>
          ) : null}
          <Button
            type="submit"
            variant="primary"
            icon="check"
            busy={saving}
            disabled={!dirty || saving || badColours.size > 0}
          >
            {t('brand.save')}
          </Button>
        </div>
      </div>
    </form>
  );
}
