import { useEffect, useMemo, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { Brand, BrandProfile, BrandRole, CatalogDetail, RenderRequest } from '../../api/types';
import { Button, ErrorBanner, Field } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import { brandRoleValue } from '../template/brand-values';
import { initialValue } from '../template/TemplateScreen';
import { usePreview } from '../template/use-preview';

/**
 * A brand-bound template rendered with the selected brand as it is being edited: the draft's
 * values are sent as the bound variables' values, so the preview follows edits before a save.
 */
export function BrandPreview({
  brand,
  profile,
}: {
  brand: Brand;
  /** The form's draft of the brand's profile (the saved profile when nothing is edited). */
  profile: BrandProfile;
}): ReactElement {
  const t = useT();
  const catalog = useAppStore((s) => s.catalog);
  const loadCatalog = useAppStore((s) => s.loadCatalog);
  const free = useAppStore((s) => s.previewFree);
  const [templateId, setTemplateId] = useState<string>('');
  const [candidates, setCandidates] = useState<CatalogDetail[] | null>(null);

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
      // Those that take the primary colour first: a brand's colour shows most in them.
      const usesPrimary = (d: CatalogDetail) =>
        d.variables.some((v) => v.bindsTo === 'brand.primaryColor') ? 0 : 1;
      const bound = all
        .filter((d): d is CatalogDetail => d !== null && d.variables.some((v) => v.bindsTo))
        .sort((a, b) => usesPrimary(a) - usesPrimary(b));
      setCandidates(bound);
      const first = bound[0];
      if (first) setTemplateId((current) => current || first.id);
    });
    return () => {
      cancelled = true;
    };
  }, [catalog]);
  const detail = candidates?.find((c) => c.id === templateId) ?? null;

  const request = useMemo((): RenderRequest | null => {
    if (!detail) return null;
    const values: Record<string, unknown> = {};
    for (const v of detail.variables) {
      // Bound values come from the draft; one it lacks is the server's to fill by the API's one
      // rule (the brand, else the template's default, else empty), never the template's sample:
      // the preview shows what a render with this brand draws.
      if (v.bindsTo) {
        const bound = brandRoleValue(profile, v.bindsTo as BrandRole);
        if (bound !== null) values[v.name] = bound;
        continue;
      }
      const value = initialValue(v, detail.sampleValues);
      if (value !== null && value !== undefined) values[v.name] = value;
    }
    return { templateId: detail.id, values, brand: brand.id, format: 'jpeg', quality: 80 };
  }, [detail, brand, profile]);
  // The request names the brand, not its profile: a save must still render anew.
  const preview = usePreview(request, { live: free, salt: brand.updatedAt });

  return (
    <aside className="brand-preview card" aria-label={t('brand.preview')}>
      <div className="card-header">
        <h2>{t('brand.preview')}</h2>
      </div>
      <div className="card-body stack gap-3">
        {candidates && candidates.length === 0 ? (
          <p className="small muted">{t('brandKit.preview.none')}</p>
        ) : (
          <Field label={t('brand.preview.template')}>
            {({ id }) => (
              <select
                id={id}
                className="select"
                value={templateId}
                onChange={(e) => setTemplateId(e.target.value)}
              >
                {(candidates ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        )}
        <div className="mapping-preview-frame">
          {preview.url ? (
            <img
              src={preview.url}
              alt={t('brand.preview')}
              data-testid="brand-preview-image"
              data-preview-count={preview.count}
            />
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
        <p className="small muted">
          {free ? t('detail.preview.free') : t('brandKit.preview.note')}
        </p>
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
