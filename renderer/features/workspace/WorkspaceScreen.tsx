import { useCallback, useEffect, useState, type DragEvent, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { WorkspaceTemplateItem } from '../../api/types';
import { NameDialog } from '../../components/NameDialog';
import { AppLink } from '../../components/Sidebar';
import { Button, ConfirmDialog, EmptyState, ErrorBanner } from '../../components/ui';
import { formatDateTime, useLanguage, useT } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';

const ZIP = /\.zip$/i;

/** "My templates": the workspace templates, with their actions and pack import. */
export function WorkspaceScreen(): ReactElement {
  const t = useT();
  const navigate = useAppStore((s) => s.navigate);
  const toast = useAppStore((s) => s.toast);
  const [items, setItems] = useState<WorkspaceTemplateItem[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [importError, setImportError] = useState<unknown>(null);
  const [importing, setImporting] = useState(false);
  const [over, setOver] = useState(false);
  const [deleting, setDeleting] = useState<WorkspaceTemplateItem | null>(null);
  const [renaming, setRenaming] = useState<WorkspaceTemplateItem | null>(null);

  const load = useCallback(() => {
    api.workspace.list().then(
      (list) => {
        setItems(list);
        setError(null);
      },
      (e: unknown) => setError(e),
    );
  }, []);
  useEffect(load, [load]);

  const importPack = async (file: File | undefined) => {
    if (!file) return;
    setImportError(null);
    if (!ZIP.test(file.name) && file.type !== 'application/zip') {
      setImportError(new Error(t('workspace.import.notZip', { name: file.name })));
      return;
    }
    setImporting(true);
    try {
      const detail = await api.workspace.importPack(file);
      toast('success', t('workspace.import.done', { name: detail.name }));
      navigate({ name: 'editor', id: detail.id });
    } catch (e) {
      setImportError(e);
    } finally {
      setImporting(false);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    setOver(false);
    const file = Array.from(event.dataTransfer.files).find(
      (f) => ZIP.test(f.name) || f.type === 'application/zip',
    );
    if (!file) return; // a spreadsheet goes on to the batch wizard (the window's drop)
    event.preventDefault();
    event.stopPropagation();
    void importPack(file);
  };

  const duplicate = async (item: WorkspaceTemplateItem) => {
    try {
      const copy = await api.workspace.fork(item.id);
      toast('success', t('workspace.duplicated', { name: copy.name }));
      load();
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };

  const exportPack = (item: WorkspaceTemplateItem) => {
    const file = `${item.name.replace(/[^\p{L}\p{N} _-]+/gu, '').trim() || item.id}.zip`;
    void api.workspace
      .packLink(item.id)
      .then((link) =>
        native.saveUrl(link, file, [{ name: t('workspace.pack'), extensions: ['zip'] }]),
      );
  };

  return (
    <div
      className={`page wide ws-page${over ? ' over' : ''}`}
      onDragOver={(e) => {
        if (Array.from(e.dataTransfer.types).includes('Files')) setOver(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setOver(false);
      }}
      onDrop={onDrop}
    >
      <header className="page-header">
        <div>
          <h1>{t('workspace.title')}</h1>
          <p>{t('workspace.subtitle')}</p>
        </div>
        <div className="row">
          <Button
            icon="upload"
            busy={importing}
            onClick={() =>
              void native.pickFiles('.zip,application/zip').then((files) => importPack(files[0]))
            }
          >
            {t('workspace.import')}
          </Button>
          <Button variant="primary" icon="grid" onClick={() => navigate({ name: 'catalog' })}>
            {t('workspace.fromCatalog')}
          </Button>
        </div>
      </header>

      {importError ? (
        <ErrorBanner error={importError} title={t('workspace.import.failed')} />
      ) : null}
      {error ? <ErrorBanner error={error} onRetry={load} /> : null}
      <p className="small muted">{t('workspace.drop')}</p>

      {items === null && !error ? (
        <div className="catalog-grid" aria-busy="true">
          {Array.from({ length: 4 }, (_, i) => (
            <div className="template-card" key={i} aria-hidden>
              <div className="thumb skeleton" />
            </div>
          ))}
        </div>
      ) : null}
      {items !== null && items.length === 0 ? (
        <EmptyState
          icon="layers"
          title={t('workspace.empty')}
          action={
            <Button variant="primary" icon="grid" onClick={() => navigate({ name: 'catalog' })}>
              {t('workspace.fromCatalog')}
            </Button>
          }
        >
          {t('workspace.empty.detail')}
        </EmptyState>
      ) : null}
      {items !== null && items.length > 0 ? (
        <ul className="catalog-grid ws-grid" aria-label={t('workspace.title')}>
          {items.map((item) => (
            <WorkspaceCard
              key={item.id}
              item={item}
              onDuplicate={() => void duplicate(item)}
              onRename={() => setRenaming(item)}
              onDelete={() => setDeleting(item)}
              onExport={() => exportPack(item)}
            />
          ))}
        </ul>
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title={t('workspace.delete.title', { name: deleting?.name ?? '' })}
        body={t('workspace.delete.body')}
        confirmLabel={t('common.delete')}
        danger
        onConfirm={() => {
          const item = deleting;
          if (!item) return;
          api.workspace.remove(item.id).then(
            () => {
              toast('success', t('workspace.deleted', { name: item.name }));
              load();
            },
            (e: unknown) => toast('error', (e as Error).message),
          );
        }}
        onClose={() => setDeleting(null)}
      />
      <NameDialog
        open={renaming !== null}
        title={t('workspace.rename')}
        label={t('workspace.rename.label')}
        submitLabel={t('workspace.rename')}
        initialName={renaming?.name ?? ''}
        onSubmit={async (name) => {
          if (!renaming) return;
          // A rename is a save of the name as a new version.
          await api.workspace.patch(renaming.id, { name, baseVersion: renaming.version });
          load();
        }}
        onClose={() => setRenaming(null)}
      />
    </div>
  );
}

function WorkspaceCard({
  item,
  onDuplicate,
  onRename,
  onDelete,
  onExport,
}: {
  item: WorkspaceTemplateItem;
  onDuplicate: () => void;
  onRename: () => void;
  onDelete: () => void;
  onExport: () => void;
}): ReactElement {
  const t = useT();
  const language = useLanguage();
  const navigate = useAppStore((s) => s.navigate);
  return (
    <li className="template-card ws-card" data-template-id={item.id}>
      <AppLink
        to={{ name: 'editor', id: item.id }}
        className="template-link"
        aria-label={t('workspace.edit.named', { name: item.name })}
      >
        <div className="thumb">
          <img src={item.thumbnail} alt="" loading="lazy" decoding="async" draggable={false} />
        </div>
        <div className="template-meta">
          <div className="template-name">{item.name}</div>
          <div className="template-sub">
            {t('workspace.version', { version: item.version })}
            <span aria-hidden>·</span>
            {formatDateTime(language, item.updatedAt)}
          </div>
        </div>
      </AppLink>
      <div className="ws-actions">
        <Button
          size="sm"
          variant="primary"
          icon="pencil"
          onClick={() => navigate({ name: 'editor', id: item.id })}
          aria-label={t('workspace.edit.named', { name: item.name })}
        >
          {t('workspace.edit')}
        </Button>
        <Button
          size="sm"
          icon="play"
          onClick={() => navigate({ name: 'template', id: item.id })}
          aria-label={t('workspace.use.named', { name: item.name })}
        >
          {t('workspace.use')}
        </Button>
        <Button
          size="sm"
          icon="layers"
          aria-label={t('workspace.batch.named', { name: item.name })}
          onClick={() => navigate({ name: 'wizard', templateId: item.id })}
        >
          {t('workspace.batch')}
        </Button>
      </div>
      <div className="ws-actions">
        <Button
          size="sm"
          variant="ghost"
          icon="copy"
          aria-label={t('workspace.duplicate.named', { name: item.name })}
          title={t('workspace.duplicate')}
          onClick={onDuplicate}
        />
        <Button
          size="sm"
          variant="ghost"
          icon="pencil"
          aria-label={t('workspace.rename.named', { name: item.name })}
          title={t('workspace.rename')}
          onClick={onRename}
        />
        <Button
          size="sm"
          variant="ghost"
          icon="download"
          aria-label={t('workspace.export.named', { name: item.name })}
          title={t('workspace.export')}
          onClick={onExport}
        />
        <span className="grow" />
        <Button
          size="sm"
          variant="ghost"
          icon="trash"
          aria-label={t('workspace.delete.named', { name: item.name })}
          title={t('common.delete')}
          onClick={onDelete}
        />
      </div>
    </li>
  );
}
