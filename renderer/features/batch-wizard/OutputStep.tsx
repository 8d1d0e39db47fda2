import { useEffect, useState, type ReactElement } from 'react';
import { OUTPUT_FORMATS } from '../../../shared/output-formats';
import { api } from '../../api/client';
import { Icon } from '../../components/Icon';
import { Button, ErrorBanner, Field, Segmented } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useAppStore } from '../../stores/app-store';
import type { WizardState } from '../../stores/wizard-slice';
import { BrandSelect } from '../brand/BrandSelect';
import { targetLabel } from '../catalog/target-label';
import { fillPattern, layoutPageCount, needsImagePage, printLayout } from './mapping';
import { MoreSizes } from './MoreSizes';
import { SheetOutput } from './SheetOutput';

export function OutputStep(): ReactElement | null {
  const t = useT();
  const template = useAppStore((s) => s.wizard.template);
  const upload = useAppStore((s) => s.wizard.upload);
  const target = useAppStore((s) => s.wizard.target);
  const moreTargets = useAppStore((s) => s.wizard.moreTargets);
  const format = useAppStore((s) => s.wizard.format);
  const pattern = useAppStore((s) => s.wizard.fileNamePattern);
  const imagesMode = useAppStore((s) => s.wizard.imagesMode);
  const imagesDir = useAppStore((s) => s.wizard.imagesDir);
  const imagesZip = useAppStore((s) => s.wizard.imagesZip);
  const brand = useAppStore((s) => s.wizard.brand);
  const sheets = useAppStore((s) => s.wizard.sheets);
  const imagePage = useAppStore((s) => s.wizard.page);
  const verifyCodes = useAppStore((s) => s.wizard.verifyCodes);
  const brands = useAppStore((s) => s.brands);
  const loadBrands = useAppStore((s) => s.loadBrands);
  const patch = useAppStore((s) => s.wizardPatch);
  const [zipBusy, setZipBusy] = useState(false);
  const [zipError, setZipError] = useState<unknown>(null);
  useEffect(() => {
    loadBrands().catch(() => {});
  }, [loadBrands]);
  if (!template || !upload) return null;
  const page = printLayout(template, target);
  const pages = layoutPageCount(template, target);
  const askPage = needsImagePage(template, { target, format, sheets });

  const fields = upload.fields ?? [];
  const example =
    fields.length >= 2
      ? `{${fields[0]}}-{${fields[1]}}`
      : fields[0]
        ? `{${fields[0]}}`
        : '{sku}-{name}';
  const ext = format === 'jpeg' ? 'jpg' : format;
  // Several sizes: each file ends in its layout's name.
  const chosen = target ?? template.ratios[0] ?? 'square';
  const sizeSuffix = moreTargets.some((r) => r !== chosen) && !page ? `-${chosen}` : '';
  const sampleName = pattern.trim()
    ? `${fillPattern(pattern, upload.preview?.[0]) || '1'}${sizeSuffix}.${ext}`
    : `1${sizeSuffix}.${ext}`;

  const pickZip = async () => {
    const [file] = await native.pickFiles('.zip,application/zip');
    if (!file) return;
    setZipBusy(true);
    setZipError(null);
    try {
      const uploaded = await api.uploads.create(file, file.name);
      patch({ imagesZip: uploaded, imagesMode: 'zip' });
    } catch (e) {
      setZipError(e);
    } finally {
      setZipBusy(false);
    }
  };

  return (
    <div className="card">
      <div className="card-body stack gap-6">
        <div className="field-row">
          <Field label={t('wizard.output.target')}>
            {({ id }) => (
              <Segmented
                id={id}
                label={t('wizard.output.target')}
                value={target ?? template.ratios[0] ?? 'square'}
                onChange={(r) => patch({ target: r })}
                options={template.targets.map((r) => ({
                  value: r,
                  label: targetLabel(t, template, r),
                }))}
              />
            )}
          </Field>
          <Field label={t('wizard.output.format')}>
            {({ id }) => (
              <Segmented
                id={id}
                label={t('wizard.output.format')}
                value={format}
                onChange={(f) => patch({ format: f as WizardState['format'] })}
                options={OUTPUT_FORMATS.map((f) => ({
                  value: f,
                  label: t(`format.${f}`),
                  // Sheets are printed from PDF.
                  disabled: Boolean(sheets && page) && f !== 'pdf',
                }))}
              />
            )}
          </Field>
        </div>

        {askPage ? (
          <Field label={t('sheets.page')} hint={t('sheets.page.hint', { pages })}>
            {({ id }) => (
              <Segmented
                id={id}
                label={t('sheets.page')}
                value={String(Math.min(imagePage, pages))}
                onChange={(p) => patch({ page: Number(p) })}
                options={Array.from({ length: pages }, (_, i) => ({
                  value: String(i + 1),
                  label: t('sheets.page.option', { page: i + 1 }),
                }))}
              />
            )}
          </Field>
        ) : null}

        {page ? <SheetOutput page={page} pages={pages} /> : null}

        {!page ? <MoreSizes /> : null}

        <BrandSelect brands={brands} value={brand} onChange={(id) => patch({ brand: id })} />

        <Field
          label={t('wizard.output.pattern')}
          optional
          hint={
            <>
              {t('wizard.output.pattern.hint', { example })}{' '}
              <span>{t('wizard.output.pattern.example', { name: sampleName })}</span>
            </>
          }
        >
          {({ id, describedBy }) => (
            <input
              id={id}
              aria-describedby={describedBy}
              className="input mono"
              value={pattern}
              placeholder={example}
              onChange={(e) => patch({ fileNamePattern: e.target.value })}
            />
          )}
        </Field>

        <fieldset className="fieldset">
          <legend className="field-label">{t('wizard.output.images')}</legend>
          <p className="field-hint">{t('wizard.output.images.hint')}</p>
          <div className="stack gap-2">
            {(['none', 'folder', 'zip'] as const).map((mode) => (
              <label key={mode} className="check">
                <input
                  type="radio"
                  name="images-mode"
                  checked={imagesMode === mode}
                  onChange={() => patch({ imagesMode: mode })}
                />
                {t(`wizard.output.images.${mode}`)}
              </label>
            ))}
          </div>
          {imagesMode === 'folder' ? (
            <div className="row wrap images-row">
              <label className="grow">
                <span className="visually-hidden">{t('wizard.output.images.path')}</span>
                <input
                  className="input mono"
                  value={imagesDir}
                  aria-label={t('wizard.output.images.path')}
                  placeholder={t('wizard.output.images.pathPlaceholder')}
                  onChange={(e) => patch({ imagesDir: e.target.value })}
                />
              </label>
              {native.available ? (
                <Button
                  icon="folder"
                  onClick={() =>
                    void native.chooseFolder(t('wizard.output.images')).then((dir) => {
                      if (dir) patch({ imagesDir: dir });
                    })
                  }
                >
                  {t('wizard.output.images.choose')}
                </Button>
              ) : null}
            </div>
          ) : null}
          {imagesMode === 'zip' ? (
            <div className="row wrap images-row">
              <Button icon="upload" onClick={() => void pickZip()} busy={zipBusy}>
                {t('wizard.output.images.zipPick')}
              </Button>
              {imagesZip ? (
                <span className="row small">
                  <Icon name="checkCircle" />{' '}
                  {t('wizard.output.images.zipDone', { name: imagesZip.filename })}
                </span>
              ) : null}
            </div>
          ) : null}
          {zipError ? <ErrorBanner error={zipError} /> : null}
        </fieldset>

        <div className="stack gap-2">
          <label className="check">
            <input
              type="checkbox"
              checked={verifyCodes}
              aria-describedby="verify-codes-hint"
              onChange={(e) => patch({ verifyCodes: e.target.checked })}
            />
            {t('wizard.output.verifyCodes')}
          </label>
          <p id="verify-codes-hint" className="field-hint">
            {t('wizard.output.verifyCodes.hint')}
          </p>
        </div>
      </div>
    </div>
  );
}
