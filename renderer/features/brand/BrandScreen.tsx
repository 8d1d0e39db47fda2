import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import { isApiError } from '../../api/http';
import type { BrandProfile, BrandRole, CatalogDetail } from '../../api/types';
import { Icon } from '../../components/Icon';
import { ColourInput } from '../../components/inputs';
import { Button, ErrorBanner, Field, Loading } from '../../components/ui';
import { useT, type MessageKey } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';
import { brandRoleValue } from '../template/brand-values';
import { initialValue } from '../template/TemplateScreen';
import { usePreview } from '../template/use-preview';

const COLOURS = ['primary', 'secondary', 'accent', 'text', 'background'] as const;
/** Font families shipped in templates/fonts that cover Vietnamese. */
const FONTS = ['Be Vietnam Pro', 'Montserrat', 'Noto Serif'];

export function BrandScreen(): ReactElement {
  const t = useT();
  const saved = useAppStore((s) => s.brand);
  const load = useAppStore((s) => s.loadBrand);
  const [loadError, setLoadError] = useState<unknown>(null);
  useEffect(() => {
    load().catch(setLoadError);
  }, [load]);
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{t('brand.title')}</h1>
          <p>{t('brand.subtitle')}</p>
        </div>
      </header>
      {loadError ? (
        <ErrorBanner error={loadError} onRetry={() => void load().catch(setLoadError)} />
      ) : null}
      {saved ? <BrandForm saved={saved} /> : !loadError ? <Loading /> : null}
    </div>
  );
}

function BrandForm({ saved }: { saved: BrandProfile }): ReactElement {
  const t = useT();
  const save = useAppStore((s) => s.saveBrand);
  const toast = useAppStore((s) => s.toast);
  const [draft, setDraft] = useState<BrandProfile>(saved);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);
  const problem = (path: string) => (isApiError(error) ? error.problemFor(path) : undefined);

  const submit = async () => {
    setSaving(true);
    setError(null);
    try {
      await save(draft);
      toast('success', t('brand.saved'));
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="brand-layout">
      <form
        className="stack gap-4"
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
            <Field label={t('brand.name')} error={problem('name')}>
              {({ id, invalid }) => (
                <input
                  id={id}
                  className="input"
                  aria-invalid={invalid || undefined}
                  value={draft.name}
                  maxLength={120}
                  onChange={(e) => setDraft({ ...draft, name: e.target.value })}
                />
              )}
            </Field>
            <Field label={t('brand.tagline')} optional error={problem('tagline')}>
              {({ id }) => (
                <input
                  id={id}
                  className="input"
                  value={draft.tagline}
                  maxLength={200}
                  onChange={(e) => setDraft({ ...draft, tagline: e.target.value })}
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
                  onChange={(e) => setDraft({ ...draft, website: e.target.value })}
                />
              )}
            </Field>
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
              onChange={(logo) => setDraft({ ...draft, logo })}
            />
            <LogoField
              label={t('brand.logoDark')}
              dark
              value={draft.logoDark}
              error={problem('logoDark')}
              onChange={(logoDark) => setDraft({ ...draft, logoDark })}
            />
          </div>
        </section>

        <section className="card">
          <div className="card-header">
            <h2>{t('brand.colours')}</h2>
          </div>
          <div className="card-body colour-grid">
            {COLOURS.map((key) => {
              const label = t(`brand.colour.${key}` as MessageKey);
              const value = draft.colours[key];
              return (
                <Field
                  key={key}
                  label={label}
                  error={problem(`colours.${key}`)}
                  aside={
                    value ? (
                      <button
                        type="button"
                        className="btn ghost sm"
                        onClick={() =>
                          setDraft({ ...draft, colours: { ...draft.colours, [key]: null } })
                        }
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
                      onChange={(colour) =>
                        setDraft({ ...draft, colours: { ...draft.colours, [key]: colour } })
                      }
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
              <Field key={role} label={t(`brand.font.${role}`)}>
                {({ id }) => (
                  <select
                    id={id}
                    className="select"
                    value={draft.fonts[role] ?? ''}
                    onChange={(e) =>
                      setDraft({
                        ...draft,
                        fonts: { ...draft.fonts, [role]: e.target.value || null },
                      })
                    }
                  >
                    <option value="">{t('brand.font.default')}</option>
                    {FONTS.map((font) => (
                      <option key={font} value={font}>
                        {font}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ))}
          </div>
        </section>

        <div className="save-bar">
          {dirty ? <span className="small muted">{t('brand.unsaved')}</span> : <span />}
          <Button
            type="submit"
            variant="primary"
            icon="check"
            busy={saving}
            disabled={!dirty || saving}
          >
            {t('brand.save')}
          </Button>
        </div>
      </form>
      <BrandPreview />
    </div>
  );
}

function LogoField({
  label,
  value,
  onChange,
  error,
  dark,
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  error: string | undefined;
  dark?: boolean;
}): ReactElement {
  const t = useT();
  // Logos are kept as data: URIs so every screen can show them without another request.
  const pick = async () => {
    const [file] = await native.pickFiles('image/png,image/jpeg,image/webp,image/svg+xml');
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => onChange(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
  };
  return (
    <Field label={label} error={error} optional={dark}>
      {({ id, describedBy }) => (
        <div className={`logo-box${dark ? ' dark' : ''}`}>
          <div className="logo-preview">
            {value?.startsWith('data:image/') ? (
              <img src={value} alt={label} />
            ) : (
              <Icon name="image" size={22} />
            )}
          </div>
          <div className="row">
            <Button
              id={id}
              size="sm"
              icon="upload"
              aria-describedby={describedBy}
              onClick={() => void pick()}
            >
              {t('field.image.pick')}
            </Button>
            {value ? (
              <Button size="sm" variant="ghost" icon="x" onClick={() => onChange(null)}>
                {t('field.image.remove')}
              </Button>
            ) : null}
          </div>
        </div>
      )}
    </Field>
  );
}

/** A render of a brand-bound template with the saved profile (what batches will get). */
function BrandPreview(): ReactElement {
  const t = useT();
  const catalog = useAppStore((s) => s.catalog);
  const loadCatalog = useAppStore((s) => s.loadCatalog);
  const saved = useAppStore((s) => s.brand);
  const free = useAppStore((s) => s.previewFree);
  const [templateId, setTemplateId] = useState<string>('');
  const [detail, setDetail] = useState<CatalogDetail | null>(null);
  const [candidates, setCandidates] = useState<CatalogDetail[]>([]);

  useEffect(() => {
    void loadCatalog();
  }, [loadCatalog]);
  // Templates with brand-bound variables are the ones worth previewing here.
  useEffect(() => {
    if (!catalog) return;
    let cancelled = false;
    void Promise.all(
      catalog.slice(0, 40).map((item) => api.catalog.detail(item.id).catch(() => null)),
    ).then((all) => {
      if (cancelled) return;
      const bound = all.filter(
        (d): d is CatalogDetail => d !== null && d.variables.some((v) => v.bindsTo),
      );
      setCandidates(bound);
      const first = bound[0];
      if (first) {
        setTemplateId((current) => current || first.id);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [catalog]);
  useEffect(() => {
    setDetail(candidates.find((c) => c.id === templateId) ?? null);
  }, [candidates, templateId]);

  const request = useMemo(() => {
    if (!detail) return null;
    const values: Record<string, unknown> = {};
    for (const v of detail.variables) {
      // Bound values come from the saved profile; what it lacks shows the template's sample
      // (a required store name would otherwise fail the preview).
      if (v.bindsTo && saved && brandRoleValue(saved, v.bindsTo as BrandRole) !== null) continue;
      const value = initialValue(v, detail.sampleValues);
      if (value !== null && value !== undefined) values[v.name] = value;
    }
    return { templateId: detail.id, values, format: 'jpeg' as const, quality: 80 };
  }, [detail, saved]);
  const preview = usePreview(request, { live: free, salt: JSON.stringify(saved) });

  return (
    <aside className="brand-preview card" aria-label={t('brand.preview')}>
      <div className="card-header">
        <h2>{t('brand.preview')}</h2>
      </div>
      <div className="card-body stack gap-3">
        <Field label={t('brand.preview.template')}>
          {({ id }) => (
            <select
              id={id}
              className="select"
              value={templateId}
              onChange={(e) => setTemplateId(e.target.value)}
            >
              {candidates.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="mapping-preview-frame">
          {preview.url ? (
            <img src={preview.url} alt={t('brand.preview')} />
          ) : detail ? (
            <img src={detail.thumbnail} alt="" className="dim" />
          ) : null}
          {preview.busy ? (
            <div className="preview-busy" role="status">
              <span className="spinner" aria-hidden />
              {t('detail.preview.rendering')}
            </div>
          ) : null}
        </div>
        {preview.error ? <ErrorBanner error={preview.error} /> : null}
        <p className="small muted">{free ? t('detail.preview.free') : t('brand.preview.note')}</p>
        {!free ? (
          <div>
            <Button icon="refresh" onClick={preview.refresh} busy={preview.busy} disabled={!detail}>
              {t('brand.preview.button')}
            </Button>
          </div>
        ) : null}
      </div>
    </aside>
  );
}
