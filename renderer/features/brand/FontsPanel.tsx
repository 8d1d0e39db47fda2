import { useState, type DragEvent, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { FontFamilyInfo, FontScript } from '../../api/types';
import { Button, ConfirmDialog, ErrorBanner } from '../../components/ui';
import { useT, type MessageKey } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';

const FONT_FILE = /\.(ttf|otf|woff2?)$/i;
const ACCEPT = '.ttf,.otf,.woff,.woff2,font/ttf,font/otf,font/woff,font/woff2';

/** The content type the core expects for a font file; it reads the bytes either way. */
function fontType(file: File): string {
  const ext = FONT_FILE.exec(file.name)?.[1]?.toLowerCase();
  return ext ? `font/${ext}` : file.type || 'application/octet-stream';
}

interface Face {
  id: string;
  family: string;
  weight: number;
  style: 'normal' | 'italic';
  scripts: FontScript[];
}

/** Upload, list and delete custom fonts; `onChanged` reloads the families the form offers. */
export function FontsPanel({
  families,
  onChanged,
}: {
  families: FontFamilyInfo[];
  onChanged: () => void;
}): ReactElement {
  const t = useT();
  const toast = useAppStore((s) => s.toast);
  const [over, setOver] = useState(false);
  const [uploading, setUploading] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<unknown>(null);
  const [deleteError, setDeleteError] = useState<unknown>(null);
  const [deleting, setDeleting] = useState<Face | null>(null);

  const faces: Face[] = families
    .filter((f) => f.source === 'custom')
    .flatMap((f) =>
      f.faces.flatMap((face) =>
        face.id ? [{ ...face, id: face.id, family: f.family, scripts: f.scripts }] : [],
      ),
    );

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setUploadError(null);
    setDeleteError(null);
    if (!FONT_FILE.test(file.name) && !file.type.startsWith('font/')) {
      setUploadError(new Error(t('brandKit.fonts.notFont', { name: file.name })));
      return;
    }
    setUploading(file.name);
    try {
      const typed = new File([file], file.name, { type: fontType(file) });
      const before = new Set(faces.map((f) => f.id));
      const font = await api.fonts.upload(typed, file.name);
      toast(
        'success',
        t(before.has(font.id) ? 'brandKit.fonts.already' : 'brandKit.fonts.uploaded', {
          family: font.family,
        }),
      );
      onChanged();
    } catch (e) {
      setUploadError(e);
    } finally {
      setUploading(null);
    }
  };

  const remove = async (face: Face) => {
    setDeleteError(null);
    try {
      await api.fonts.remove(face.id);
      toast('success', t('brandKit.fonts.deleted', { family: face.family }));
      onChanged();
    } catch (e) {
      setDeleteError(e);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    // The window treats other drops as spreadsheets for the batch wizard.
    event.stopPropagation();
    setOver(false);
    void upload(event.dataTransfer.files[0]);
  };

  return (
    <section className="card kit-fonts" aria-labelledby="kit-fonts-title" data-testid="fonts-panel">
      <div className="card-header">
        <h2 id="kit-fonts-title">{t('brandKit.fonts')}</h2>
      </div>
      <div className="card-body stack gap-3">
        <div
          className={`kit-drop${over ? ' over' : ''}`}
          onDragOver={(e) => {
            if (!Array.from(e.dataTransfer.types).includes('Files')) return;
            e.preventDefault();
            e.stopPropagation();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <p className="small muted">{t('brandKit.fonts.hint')}</p>
          <Button
            size="sm"
            icon="upload"
            busy={uploading !== null}
            disabled={uploading !== null}
            onClick={() => void native.pickFiles(ACCEPT).then((files) => upload(files[0]))}
          >
            {t('brandKit.fonts.upload')}
          </Button>
          <span className="small subtle" aria-hidden>
            {t('brandKit.fonts.drop')}
          </span>
          {uploading ? (
            <span className="small muted" role="status">
              {t('brandKit.fonts.uploading', { name: uploading })}
            </span>
          ) : null}
        </div>
        {uploadError ? (
          <ErrorBanner error={uploadError} title={t('brandKit.fonts.failed')} />
        ) : null}
        {deleteError ? (
          <ErrorBanner error={deleteError} title={t('brandKit.fonts.deleteFailed')} />
        ) : null}
        {faces.length === 0 ? (
          <p className="small subtle">{t('brandKit.fonts.empty')}</p>
        ) : (
          <ul className="kit-font-list" data-testid="custom-fonts">
            {faces.map((face) => (
              <li key={face.id} className="kit-font">
                <div className="grow stack gap-1">
                  <strong className="kit-truncate">{face.family}</strong>
                  <span className="small muted">
                    {t(
                      face.style === 'italic'
                        ? 'brandKit.fonts.face.italic'
                        : 'brandKit.fonts.face',
                      {
                        weight: face.weight,
                      },
                    )}
                  </span>
                  <span className="row wrap kit-scripts">
                    <span className="visually-hidden">{t('brandKit.fonts.scripts')}</span>
                    {face.scripts.map((script) => (
                      <span key={script} className="chip">
                        {t(`brandKit.script.${script}` as MessageKey)}
                      </span>
                    ))}
                  </span>
                </div>
                <Button
                  size="sm"
                  variant="ghost"
                  icon="trash"
                  aria-label={t('brandKit.fonts.delete', {
                    family: face.family,
                    weight: face.weight,
                  })}
                  onClick={() => setDeleting(face)}
                />
              </li>
            ))}
          </ul>
        )}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={t('brandKit.fonts.delete.title', { family: deleting?.family ?? '' })}
        body={t('brandKit.fonts.delete.body')}
        confirmLabel={t('common.delete')}
        danger
        onConfirm={() => {
          if (deleting) void remove(deleting);
        }}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
