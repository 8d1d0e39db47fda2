import { useCallback, useEffect, useState, type ReactElement } from 'react';
import type { Brand, BrandProfile } from '../../api/types';
import { NameDialog } from '../../components/NameDialog';
import { ConfirmDialog, ErrorBanner, Loading } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import { BrandForm } from './BrandForm';
import { BrandList } from './BrandList';
import { BrandPreview } from './BrandPreview';
import { FontsPanel } from './FontsPanel';
import { useBrands } from './use-brands';
import { useFontList } from './use-font-list';

type Dialog =
  | { kind: 'create' }
  | { kind: 'rename'; brand: Brand }
  | { kind: 'delete'; brand: Brand }
  /** Unsaved edits of the selected brand would be lost by `then` (switching, creating). */
  | { kind: 'discard'; then: () => void };

/** The brand kit: the brands, the selected brand's form and preview, and the custom fonts. */
export function BrandKitScreen(): ReactElement {
  const t = useT();
  const toast = useAppStore((s) => s.toast);
  const kit = useBrands();
  const fonts = useFontList();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);

  const brands = kit.brands;
  const selected =
    brands?.find((b) => b.id === selectedId) ?? brands?.find((b) => b.isDefault) ?? null;
  useEffect(() => {
    if (selected && selected.id !== selectedId) setSelectedId(selected.id);
  }, [selected, selectedId]);

  const select = (brand: Brand) => {
    if (brand.id === selected?.id) return;
    const then = () => setSelectedId(brand.id);
    if (dirty) setDialog({ kind: 'discard', then });
    else then();
  };

  /** Runs a list action, reporting its failure above the list. */
  const act = async (action: () => Promise<void>) => {
    setActionError(null);
    try {
      await action();
    } catch (e) {
      setActionError(e);
    }
  };

  const onDirtyChange = useCallback((value: boolean) => setDirty(value), []);
  // The form's draft, so the preview shows edits before they are saved.
  const [draft, setDraft] = useState<{ id: string; profile: BrandProfile } | null>(null);

  return (
    <div className="page wide">
      <header className="page-header">
        <div>
          <h1>{t('brandKit.title')}</h1>
          <p>{t('brandKit.subtitle')}</p>
        </div>
      </header>
      {kit.loadError ? (
        <ErrorBanner error={kit.loadError} onRetry={() => void kit.reload().catch(() => {})} />
      ) : null}
      {actionError ? <ErrorBanner error={actionError} /> : null}
      {brands && selected ? (
        <div className="brand-layout kit-layout">
          <div className="stack gap-4 kit-side">
            <BrandList
              brands={brands}
              selectedId={selected.id}
              dirty={dirty}
              onSelect={select}
              onCreate={() => {
                const then = () => setDialog({ kind: 'create' });
                if (dirty) setDialog({ kind: 'discard', then });
                else then();
              }}
              onRename={(brand) => setDialog({ kind: 'rename', brand })}
              onMakeDefault={(brand) =>
                void act(async () => {
                  await kit.makeDefault(brand);
                  toast('success', t('brandKit.madeDefault', { name: brand.name }));
                })
              }
              onDelete={(brand) => setDialog({ kind: 'delete', brand })}
            />
            {fonts.error ? <ErrorBanner error={fonts.error} onRetry={fonts.reload} /> : null}
            {fonts.families ? (
              <FontsPanel families={fonts.families} onChanged={fonts.reload} />
            ) : null}
          </div>
          <BrandForm
            key={selected.id}
            brand={selected}
            families={fonts.families ?? []}
            onDirtyChange={onDirtyChange}
            onDraftChange={setDraft}
            onSave={async (profile) => {
              const saved = await kit.save(selected, profile);
              toast('success', t('brandKit.saved', { name: saved.name }));
              return saved.profile;
            }}
          />
          <BrandPreview
            brand={selected}
            profile={draft?.id === selected.id ? draft.profile : selected.profile}
          />
        </div>
      ) : !kit.loadError ? (
        <Loading />
      ) : null}

      <NameDialog
        label={t('brandKit.new.label')}
        open={dialog?.kind === 'create'}
        title={t('brandKit.new.title')}
        submitLabel={t('brandKit.new.create')}
        initialName=""
        copyLabel={selected ? t('brandKit.new.copy') : undefined}
        onSubmit={async (name, copy) => {
          const created = await kit.create(name, copy && selected ? selected : undefined);
          setDirty(false);
          setSelectedId(created.id);
          toast('success', t('brandKit.created', { name: created.name }));
        }}
        onClose={() => setDialog(null)}
      />
      <NameDialog
        label={t('brandKit.new.label')}
        open={dialog?.kind === 'rename'}
        title={t('brandKit.rename.title')}
        submitLabel={t('brandKit.rename')}
        initialName={dialog?.kind === 'rename' ? dialog.brand.name : ''}
        onSubmit={async (name) => {
          if (dialog?.kind !== 'rename') return;
          const renamed = await kit.rename(dialog.brand, name);
          toast('success', t('brandKit.renamed', { name: renamed.name }));
        }}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'delete'}
        title={t('brandKit.delete.title', {
          name: dialog?.kind === 'delete' ? dialog.brand.name : '',
        })}
        body={t('brandKit.delete.body')}
        confirmLabel={t('brandKit.delete')}
        danger
        onConfirm={() => {
          if (dialog?.kind !== 'delete') return;
          const { brand } = dialog;
          void act(async () => {
            await kit.remove(brand);
            setDirty(false);
            setSelectedId(null);
            toast('success', t('brandKit.deleted', { name: brand.name }));
          });
        }}
        onClose={() => setDialog(null)}
      />
      <ConfirmDialog
        open={dialog?.kind === 'discard'}
        title={t('brandKit.discard.title')}
        body={t('brandKit.discard.body', { name: selected?.name ?? '' })}
        confirmLabel={t('brandKit.discard.confirm')}
        danger
        onConfirm={() => {
          if (dialog?.kind !== 'discard') return;
          setDirty(false);
          dialog.then();
        }}
        // Only this dialog closes: `then` may have opened the next one (New brand).
        onClose={() => setDialog((current) => (current?.kind === 'discard' ? null : current))}
      />
    </div>
  );
}
