import { useCallback, useEffect, useRef, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import { RATIO_SIZES } from '../../../shared/ratios';
import type { Ratio } from '../../api/types';
import { Icon } from '../../components/Icon';
import { Button, ConfirmDialog, ErrorBanner, Loading, Segmented } from '../../components/ui';
import { formatDateTime, useLanguage, useT } from '../../i18n/i18n';
import { setLeaveGuard } from '../../router/leave-guard';
import { useAppStore } from '../../stores/app-store';
import { ratioKey } from '../catalog/CatalogScreen';
import { selectDirty, useEditorStore } from './editor-store';
import { Inspector } from './Inspector';
import { scaledLayout } from './layer-ops';
import { LayersPanel } from './LayersPanel';
import { PageBar } from './PageBar';
import { saveDraft } from './save-draft';
import { Stage } from './Stage';
import { useDraftPreview } from './use-draft-preview';
import { useEditorKeys } from './use-editor-keys';
import { useLayoutLabel } from './use-layout-label';
import { VariablesPanel } from './VariablesPanel';

/** The visual editor of a workspace template (`wtpl_…`). */
export function EditorScreen({ id }: { id: string }): ReactElement {
  const [error, setError] = useState<unknown>(null);
  const loaded = useEditorStore((s) => s.id === id && s.draft !== null);
  const load = useCallback(() => {
    setError(null);
    api.workspace.get(id).then((detail) => useEditorStore.getState().load(detail), setError);
  }, [id]);
  useEffect(load, [load]);

  if (error) {
    return (
      <div className="page">
        <ErrorBanner error={error} onRetry={load} />
      </div>
    );
  }
  if (!loaded) return <Loading />;
  return <Editor id={id} reload={load} />;
}

function Editor({ id, reload }: { id: string; reload: () => void }): ReactElement {
  const t = useT();
  const preview = useDraftPreview();
  const name = useEditorStore((s) => s.draft?.name ?? '');
  const dirty = useEditorStore(selectDirty);
  const [leaving, setLeaving] = useState<(() => void) | null>(null);
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useEditorKeys();

  // Unsaved work: ask before the app navigates away, and let the browser ask before a reload.
  useEffect(() => {
    setLeaveGuard((proceed) => {
      if (!dirtyRef.current) return false;
      setLeaving(() => proceed);
      return true;
    });
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (dirtyRef.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      setLeaveGuard(null);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);

  return (
    <div className="ed-screen">
      <EditorBar id={id} preview={preview} />
      <SaveProblems reload={reload} />
      <div className="ed-body">
        <div className="ed-left">
          <LayersPanel />
          <VariablesPanel />
        </div>
        <section className="ed-center" aria-label={t('editor.canvas')}>
          <RatioBar />
          <PageBar />
          <Stage preview={preview} name={name} />
          <PreviewStatus busy={preview.busy} error={preview.error} />
        </section>
        <Inspector />
      </div>
      <ConfirmDialog
        open={leaving !== null}
        title={t('editor.leave.title')}
        body={t('editor.leave.body')}
        confirmLabel={t('editor.leave.confirm')}
        danger
        onConfirm={() => {
          const proceed = leaving;
          setLeaveGuard(null);
          setLeaving(null);
          proceed?.();
        }}
        onClose={() => setLeaving(null)}
      />
    </div>
  );
}

function EditorBar({
  id,
  preview,
}: {
  id: string;
  preview: ReturnType<typeof useDraftPreview>;
}): ReactElement {
  const t = useT();
  const language = useLanguage();
  const navigate = useAppStore((s) => s.navigate);
  const name = useEditorStore((s) => s.draft?.name ?? '');
  const version = useEditorStore((s) => s.version);
  const updatedAt = useEditorStore((s) => s.updatedAt);
  const dirty = useEditorStore(selectDirty);
  const saveState = useEditorStore((s) => s.saveState);
  const canUndo = useEditorStore((s) => s.past.length > 0);
  const canRedo = useEditorStore((s) => s.future.length > 0);
  const edit = useEditorStore((s) => s.edit);
  return (
    <header className="ed-bar">
      {/* The page's heading for screen readers and headings navigation; the name is edited beside. */}
      <h1 className="visually-hidden">{t('editor.heading', { name })}</h1>
      <button type="button" className="crumb" onClick={() => navigate({ name: 'workspace' })}>
        <Icon name="arrowLeft" size={14} />
        {t('editor.back')}
      </button>
      <label className="ed-name">
        <span className="visually-hidden">{t('editor.name')}</span>
        <input
          className="input"
          value={name}
          maxLength={120}
          aria-label={t('editor.name')}
          onChange={(e) => edit((tpl) => ({ ...tpl, name: e.target.value }), 'name')}
        />
      </label>
      <span
        className={`ed-state small${dirty ? ' dirty' : ''}`}
        role="status"
        data-testid="save-state"
        data-dirty={dirty}
      >
        {saveState === 'saving'
          ? t('editor.state.saving')
          : dirty
            ? t('editor.state.unsaved')
            : t('editor.state.saved', {
                version,
                time: formatDateTime(language, updatedAt),
              })}
      </span>
      <span className="grow" />
      {/* An image with a name: a bare span may not carry aria-label (axe: aria-prohibited-attr). */}
      {preview.busy ? (
        <span className="spinner" role="img" aria-label={t('editor.preview.busy')} />
      ) : null}
      <Button
        size="sm"
        variant="ghost"
        icon="arrowLeft"
        disabled={!canUndo}
        aria-label={t('editor.undo')}
        title={t('editor.undo.keys')}
        onClick={() => useEditorStore.getState().undo()}
      />
      <Button
        size="sm"
        variant="ghost"
        icon="arrowRight"
        disabled={!canRedo}
        aria-label={t('editor.redo')}
        title={t('editor.redo.keys')}
        onClick={() => useEditorStore.getState().redo()}
      />
      <Button
        size="sm"
        icon="play"
        onClick={() => navigate({ name: 'template', id })}
        disabled={dirty}
        title={dirty ? t('editor.use.saveFirst') : undefined}
      >
        {t('editor.use')}
      </Button>
      <Button
        variant="primary"
        icon="check"
        busy={saveState === 'saving'}
        disabled={!dirty || saveState === 'saving'}
        title={t('editor.save.keys')}
        onClick={() => void saveDraft()}
      >
        {t('editor.save')}
      </Button>
    </header>
  );
}

function SaveProblems({ reload }: { reload: () => void }): ReactElement | null {
  const t = useT();
  const saveState = useEditorStore((s) => s.saveState);
  const saveError = useEditorStore((s) => s.saveError);
  if (saveState === 'conflict') {
    return (
      <div className="banner warning ed-banner" role="alert">
        <Icon name="alert" />
        <div className="grow">
          <div className="banner-title">{t('editor.conflict.title')}</div>
          <div>{t('editor.conflict.body')}</div>
        </div>
        <Button size="sm" icon="refresh" onClick={reload}>
          {t('editor.conflict.reload')}
        </Button>
        <Button size="sm" variant="danger" onClick={() => void saveDraft({ overwrite: true })}>
          {t('editor.conflict.overwrite')}
        </Button>
      </div>
    );
  }
  if (saveState === 'error') {
    return (
      <div className="ed-banner">
        <ErrorBanner error={saveError} title={t('editor.save.failed')} />
      </div>
    );
  }
  return null;
}

function PreviewStatus({ busy, error }: { busy: boolean; error: unknown }): ReactElement | null {
  const t = useT();
  const problems = useEditorStore((s) => s.problems);
  if (problems.length > 0) {
    return (
      <div className="banner warning ed-problems" role="alert" data-testid="draft-problems">
        <Icon name="alert" />
        <div className="grow">
          <div className="banner-title">{t('editor.problems.title')}</div>
          <ul>
            {problems.slice(0, 6).map((p, i) => (
              <li key={i}>
                <code>{p.path}</code>: {p.message}
              </li>
            ))}
          </ul>
        </div>
      </div>
    );
  }
  if (error && !busy) return <ErrorBanner error={error} title={t('editor.preview.failed')} />;
  return null;
}

/** Switch the ratio being edited; add a missing ratio from the current one, scaled. */
function RatioBar(): ReactElement {
  const t = useT();
  const ratio = useEditorStore((s) => s.ratio);
  const ratios = useEditorStore((s) => Object.keys(s.draft?.layouts ?? {}).join(','));
  const present = ratios.split(',').filter(Boolean) as Ratio[];
  const missing = (Object.keys(RATIO_SIZES) as Ratio[]).filter((r) => !present.includes(r));
  const add = (target: Ratio) => {
    const store = useEditorStore.getState();
    const source = store.draft?.layouts[store.ratio];
    if (!source) return;
    const size = RATIO_SIZES[target];
    store.edit((tpl) => ({
      ...tpl,
      layouts: { ...tpl.layouts, [target]: scaledLayout(source, size.width, size.height) },
    }));
    store.setRatio(target);
  };
  const remove = () => {
    const store = useEditorStore.getState();
    const rest = present.filter((r) => r !== ratio);
    if (rest.length === 0) return;
    store.setRatio(rest[0]!);
    store.edit((tpl) => {
      const layouts = { ...tpl.layouts };
      delete layouts[ratio];
      return { ...tpl, layouts };
    });
  };
  // A print or custom-size layout goes by its own name.
  const layoutLabel = useLayoutLabel();
  return (
    <div className="ed-ratios">
      <Segmented
        label={t('editor.ratio')}
        value={ratio}
        onChange={(r) => useEditorStore.getState().setRatio(r)}
        options={present.map((r) => ({ value: r, label: layoutLabel(r) }))}
      />
      {missing.length > 0 ? (
        <select
          className="select ed-add"
          aria-label={t('editor.ratio.add')}
          value=""
          onChange={(e) => e.target.value && add(e.target.value as Ratio)}
        >
          <option value="">{t('editor.ratio.add')}</option>
          {missing.map((r) => (
            <option key={r} value={r}>
              {t('editor.ratio.copy', { ratio: t(ratioKey(r)) })}
            </option>
          ))}
        </select>
      ) : null}
      {present.length > 1 ? (
        <Button
          size="sm"
          variant="ghost"
          icon="trash"
          aria-label={t('editor.ratio.remove', { ratio: layoutLabel(ratio) })}
          title={t('editor.ratio.remove', { ratio: layoutLabel(ratio) })}
          onClick={remove}
        />
      ) : null}
    </div>
  );
}
