import { useEffect, useRef, useState, type DragEvent, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { WorkspaceTemplateItem } from '../../api/types';
import { Icon } from '../../components/Icon';
import { Button, ErrorBanner } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';
import { DataTable } from './DataTable';
import { TemplatePicker } from './TemplatePicker';

export const SPREADSHEET_ACCEPT =
  '.csv,.tsv,.txt,.xlsx,.xlsm,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function SourceStep(): ReactElement {
  const t = useT();
  const catalog = useAppStore((s) => s.catalog);
  const loadCatalog = useAppStore((s) => s.loadCatalog);
  const templateId = useAppStore((s) => s.wizard.templateId);
  const template = useAppStore((s) => s.wizard.template);
  const upload = useAppStore((s) => s.wizard.upload);
  const file = useAppStore((s) => s.wizard.file);
  const uploading = useAppStore((s) => s.wizard.uploading);
  const uploadError = useAppStore((s) => s.wizard.uploadError);
  const sheet = useAppStore((s) => s.wizard.sheet);
  const setTemplate = useAppStore((s) => s.wizardSetTemplate);
  const useFile = useAppStore((s) => s.wizardUseFile);
  const selectSheet = useAppStore((s) => s.wizardSelectSheet);
  const navigate = useAppStore((s) => s.navigate);
  const [over, setOver] = useState(false);
  const [ownTemplates, setOwnTemplates] = useState<WorkspaceTemplateItem[]>([]);
  const fileHeading = useRef<HTMLHeadingElement>(null);

  // Once a file is read the drop zone (or its button) is gone and focus would fall to <body>:
  // it goes to the file's name, where the summary and the next step start.
  useEffect(() => {
    if (!upload || uploading) return;
    const active = document.activeElement;
    if (!active || active === document.body) fileHeading.current?.focus({ preventScroll: true });
  }, [upload?.id, uploading]);

  useEffect(() => {
    void loadCatalog();
  }, [loadCatalog]);
  // The user's own templates batch like built-ins ("Batch" on a My templates card opens here).
  useEffect(() => {
    let live = true;
    api.workspace.list().then(
      (items) => live && setOwnTemplates(items),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const pick = () => {
    void native.pickFiles(SPREADSHEET_ACCEPT).then((files) => {
      if (files[0]) void useFile(files[0]);
    });
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.stopPropagation();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) void useFile(dropped);
  };

  const notSpreadsheet =
    uploadError instanceof Error && uploadError.message === 'not-a-spreadsheet';

  return (
    <div className="stack gap-6">
      <div className="card">
        <div className="card-body stack gap-4">
          <TemplatePicker
            value={templateId}
            valueName={template?.name}
            groups={[
              ...(ownTemplates.length > 0
                ? [{ label: t('nav.workspace'), items: ownTemplates }]
                : []),
              { label: t('nav.catalog'), items: catalog ?? [] },
            ]}
            onPick={(id) => {
              void setTemplate(id);
              navigate({ name: 'wizard', templateId: id }, { replace: true });
            }}
          />
          {template ? (
            <div className="row wrap">
              <span className="small muted">{t('wizard.csvHint')}</span>
              <div>
                <Button
                  icon="download"
                  onClick={() =>
                    void api.batches
                      .templateFieldsCsvLink(template.id)
                      .then((link) =>
                        native.saveUrl(link, `${template.id}.csv`, [
                          { name: 'CSV', extensions: ['csv'] },
                        ]),
                      )
                  }
                >
                  {t('detail.csv')}
                </Button>
              </div>
            </div>
          ) : null}
        </div>
      </div>

      {!upload && !uploading ? (
        <div
          className={`dropzone${over ? ' over' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            e.stopPropagation();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
          data-testid="dropzone"
        >
          <div className="empty-icon">
            <Icon name="table" size={22} />
          </div>
          <h2>{t('wizard.drop.title')}</h2>
          <p className="muted">{t('wizard.drop.detail')}</p>
          <Button variant="primary" icon="upload" onClick={pick}>
            {t('wizard.drop.pick')}
          </Button>
        </div>
      ) : null}

      {uploading ? (
        <div className="card">
          <div className="card-body row">
            <span className="spinner" aria-hidden />
            <span role="status">
              {t('wizard.uploading')} {file ? <strong>{file.name}</strong> : null}
            </span>
          </div>
        </div>
      ) : null}

      {notSpreadsheet ? (
        <div className="banner danger" role="alert">
          <Icon name="alert" />
          {t('wizard.notSpreadsheet')}
        </div>
      ) : uploadError ? (
        <ErrorBanner error={uploadError} />
      ) : null}

      {upload && !uploading ? (
        <div className="card">
          <div className="card-header">
            <div className="row gap-3">
              <div className="file-icon">
                <Icon name="file" />
              </div>
              <div>
                <h3 ref={fileHeading} tabIndex={-1}>
                  {upload.filename}
                </h3>
                <p className="num">
                  {t('wizard.file.summary', {
                    rows: upload.rows ?? 0,
                    fields: upload.fields?.length ?? 0,
                  })}
                  {upload.encoding
                    ? ` · ${t('wizard.file.encoding', { encoding: upload.encoding })}`
                    : ''}
                </p>
              </div>
            </div>
            <div className="row">
              {upload.kind === 'xlsx' && (upload.sheets?.length ?? 0) > 1 ? (
                <label className="row small">
                  {t('wizard.sheet')}
                  <select
                    className="select"
                    value={String((upload.sheets ?? []).find((s) => s.name === sheet)?.index ?? '')}
                    disabled={uploading}
                    onChange={(e) => {
                      const picked = (upload.sheets ?? []).find(
                        (s) => String(s.index) === e.target.value,
                      );
                      if (picked) void selectSheet(picked);
                    }}
                  >
                    {(upload.sheets ?? []).map((s) => (
                      <option key={s.index} value={String(s.index)}>
                        {s.hidden ? t('wizard.sheet.hidden', { name: s.name }) : s.name}
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <Button icon="upload" onClick={pick}>
                {t('wizard.file.replace')}
              </Button>
            </div>
          </div>
          <div className="card-body stack gap-2">
            <h3>{t('wizard.firstRows')}</h3>
            <DataTable
              fields={upload.fields ?? []}
              rows={upload.preview ?? []}
              label={t('wizard.firstRows')}
            />
          </div>
        </div>
      ) : null}
    </div>
  );
}
