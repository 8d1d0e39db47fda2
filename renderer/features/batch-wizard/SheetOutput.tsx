import { useState, type ReactElement } from 'react';
import {
  planSheet,
  SHEET_PRESET_NAMES,
  SHEET_PRESETS,
  suggestSheetPreset,
  type SheetPresetName,
} from '../../../shared/sheet-options';
import {
  DUPLEX_MODES,
  SHEET_MARKS,
  sheetMarks,
  slotBox,
  type SheetItem,
  type SheetPlan,
} from '../../../shared/sheet-plan';
import type { CatalogDetail } from '../../api/types';
import { Field, Segmented } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { useAppStore } from '../../stores/app-store';
import type { WizardState } from '../../stores/wizard-slice';

type Page = NonNullable<CatalogDetail['layouts'][string]['page']>;

/** The print layout's trim in mm and its pages, as the sheet plan takes them. */
function itemOf(page: Page, pages: number): SheetItem {
  const mm = page.unit === 'mm' ? 1 : 25.4;
  return { width: page.width * mm, height: page.height * mm, bleed: page.bleed * mm, pages };
}

/**
 * Output of a print layout: one file a row, or sheets for printing (N-up) with a preset, duplex
 * backs and marks, and a preview of one sheet drawn from the same plan the server draws with.
 */
export function SheetOutput({ page, pages }: { page: Page; pages: number }): ReactElement {
  const t = useT();
  const sheets = useAppStore((s) => s.wizard.sheets);
  const cropMarks = useAppStore((s) => s.wizard.cropMarks);
  const patch = useAppStore((s) => s.wizardPatch);
  const [side, setSide] = useState<'front' | 'back'>('front');
  const item = itemOf(page, pages);
  const suggested = suggestSheetPreset(item);
  const fitting = SHEET_PRESET_NAMES.filter((name) => {
    const cell = SHEET_PRESETS[name].cell;
    return item.width <= cell.width + 0.01 && item.height <= cell.height + 0.01;
  });
  const set = (next: Partial<NonNullable<WizardState['sheets']>>) =>
    patch({
      format: 'pdf',
      sheets: { preset: suggested, duplex: 'none', marks: 'crop', ...sheets, ...next },
    });
  // Backs need a second page; a one-page layout never sends duplex.
  const duplex = pages > 1 ? (sheets?.duplex ?? 'none') : 'none';
  const planned = sheets
    ? planSheet(
        {
          ...(sheets.preset ? { preset: sheets.preset } : {}),
          duplex,
          marks: sheets.marks,
          ...(sheets.cutAndStack ? { cutAndStack: true } : {}),
        },
        item,
      )
    : null;

  return (
    <fieldset className="fieldset sheet-output">
      <legend className="field-label">{t('sheets.output')}</legend>
      <div className="stack gap-2">
        <label className="check">
          <input
            type="radio"
            name="sheet-output"
            checked={!sheets}
            onChange={() => patch({ sheets: null })}
          />
          {t('sheets.output.files')}
        </label>
        {!sheets ? (
          <label className="check sheet-crop-marks">
            <input
              type="checkbox"
              checked={cropMarks}
              onChange={(e) => patch({ cropMarks: e.target.checked })}
            />
            {t('sheets.output.cropMarks')}
          </label>
        ) : null}
        <label className="check">
          <input
            type="radio"
            name="sheet-output"
            checked={Boolean(sheets)}
            onChange={() => set({})}
          />
          {t('sheets.output.sheets')}
        </label>
      </div>
      {sheets ? (
        <div className="sheet-setup">
          <div className="stack gap-4">
            <Field label={t('sheets.preset')} hint={t('sheets.preset.hint')}>
              {({ id, describedBy }) => (
                <select
                  id={id}
                  aria-describedby={describedBy}
                  className="select"
                  value={sheets.preset ?? ''}
                  onChange={(e) =>
                    set({ preset: (e.target.value || null) as SheetPresetName | null })
                  }
                >
                  {fitting.map((name) => (
                    <option key={name} value={name}>
                      {t(`sheets.preset.${name}`)}
                      {name === suggested ? ` (${t('sheets.preset.suggested')})` : ''}
                    </option>
                  ))}
                  <option value="">{t('sheets.preset.fit')}</option>
                </select>
              )}
            </Field>
            {pages > 1 ? (
              <Field label={t('sheets.duplex')} hint={t('sheets.duplex.hint')}>
                {({ id }) => (
                  <Segmented
                    id={id}
                    label={t('sheets.duplex')}
                    value={sheets.duplex}
                    onChange={(duplex) => set({ duplex })}
                    options={DUPLEX_MODES.map((mode) => ({
                      value: mode,
                      label: t(`sheets.duplex.${mode}`),
                    }))}
                  />
                )}
              </Field>
            ) : null}
            <Field label={t('sheets.marks')}>
              {({ id }) => (
                <Segmented
                  id={id}
                  label={t('sheets.marks')}
                  value={sheets.marks}
                  onChange={(marks) => set({ marks })}
                  options={SHEET_MARKS.map((marks) => ({
                    value: marks,
                    label: t(`sheets.marks.${marks}`),
                  }))}
                />
              )}
            </Field>
            <Field label={t('sheets.order')} hint={t('sheets.order.hint')}>
              {({ id, describedBy }) => (
                <label className="check" htmlFor={id}>
                  <input
                    id={id}
                    type="checkbox"
                    aria-describedby={describedBy}
                    checked={Boolean(sheets.cutAndStack)}
                    onChange={(e) => set({ cutAndStack: e.target.checked })}
                  />
                  {t('sheets.order.cutAndStack')}
                </label>
              )}
            </Field>
          </div>
          <div className="sheet-preview-box">
            {planned?.ok ? (
              <>
                <SheetPreview plan={planned.plan} side={side} />
                <p className="field-hint" aria-live="polite">
                  {t('sheets.preview.summary', {
                    count: planned.plan.perSheet,
                    columns: planned.plan.columns,
                    rows: planned.plan.rows,
                    width: Math.round(planned.plan.width * 10) / 10,
                    height: Math.round(planned.plan.height * 10) / 10,
                  })}
                </p>
                {planned.plan.duplex !== 'none' ? (
                  <Segmented
                    label={t('sheets.preview.side')}
                    value={side}
                    onChange={setSide}
                    options={[
                      { value: 'front', label: t('sheets.preview.front') },
                      { value: 'back', label: t('sheets.preview.back') },
                    ]}
                  />
                ) : null}
              </>
            ) : (
              <p className="field-hint" role="alert">
                {planned && !planned.ok ? planned.problems.map((p) => p.message).join('; ') : ''}
              </p>
            )}
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}

/** One sheet to scale: paper, each item's place numbered in print order, and the marks. */
export function SheetPreview({
  plan,
  side,
}: {
  plan: SheetPlan;
  side: 'front' | 'back';
}): ReactElement {
  const t = useT();
  const slots = Array.from({ length: plan.perSheet }, (_, slot) => slot);
  return (
    <svg
      className="sheet-preview"
      viewBox={`0 0 ${plan.width} ${plan.height}`}
      role="img"
      aria-label={t('sheets.preview.label', { count: plan.perSheet })}
    >
      <rect
        x={0}
        y={0}
        width={plan.width}
        height={plan.height}
        fill="#FFFFFF"
        stroke="#94A3B8"
        strokeWidth={0.6}
      />
      {slots.map((slot) => {
        const box = slotBox(plan, slot, side);
        return (
          <g key={slot} data-slot={slot + 1}>
            <rect
              x={box.x - plan.bleed.x}
              y={box.y - plan.bleed.y}
              width={box.width + 2 * plan.bleed.x}
              height={box.height + 2 * plan.bleed.y}
              fill={side === 'front' ? '#E0E7FF' : '#FEF3C7'}
            />
            <rect
              x={box.x}
              y={box.y}
              width={box.width}
              height={box.height}
              fill={side === 'front' ? '#C7D2FE' : '#FDE68A'}
              stroke="#4F46E5"
              strokeWidth={0.4}
            />
            <text
              x={box.x + box.width / 2}
              y={box.y + box.height / 2}
              textAnchor="middle"
              dominantBaseline="central"
              fontSize={Math.min(box.width, box.height) / 3}
              fill="#1E1B4B"
            >
              {slot + 1}
            </text>
          </g>
        );
      })}
      {side === 'front'
        ? sheetMarks(plan).map((mark, index) => (
            <line
              key={index}
              x1={mark.x1}
              y1={mark.y1}
              x2={mark.x2}
              y2={mark.y2}
              stroke="#0F172A"
              strokeWidth={0.3}
            />
          ))
        : null}
    </svg>
  );
}
