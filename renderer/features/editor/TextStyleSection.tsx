import type { ReactElement } from 'react';
import type { Layer } from '../../api/types';
import { useT, type MessageKey } from '../../i18n/i18n';
import { useEditorStore } from './editor-store';
import { ColourField, NumberField, Section, SelectField } from './inspector-fields';
import { useFontFamilies } from './use-font-families';
import { useLayerEdit } from './use-layer-edit';

type StyledLayer = Extract<Layer, { kind: 'text' } | { kind: 'list' }>;

const WEIGHTS = [100, 200, 300, 400, 500, 600, 700, 800, 900];
const VAR_PREFIX = 'var:';

/** Font, size, colour, alignment and spacing: shared by text and list layers. */
export function TextStyleSection({ layer }: { layer: StyledLayer }): ReactElement {
  const t = useT();
  const { update, remove, error } = useLayerEdit<StyledLayer>(layer);
  const families = useFontFamilies();
  const variables = useEditorStore((s) => s.draft?.variables);
  const textVariables = (variables ?? []).filter((v) => v.type === 'text');
  const family = layer.font.family;
  const familyValue = typeof family === 'string' ? family : `${VAR_PREFIX}${family.var}`;
  const familyOptions = [
    ...families.map((f) => ({
      value: f.family,
      label: f.source === 'custom' ? t('editor.font.custom', { name: f.family }) : f.family,
    })),
    ...(typeof family === 'string' && !families.some((f) => f.family === family)
      ? [{ value: family, label: family }]
      : []),
    ...textVariables.map((v) => ({
      value: `${VAR_PREFIX}${v.name}`,
      label: t('editor.bind.variable', { name: v.label ?? v.name }),
    })),
  ];

  return (
    <Section title={t('editor.section.textStyle')}>
      <div className="ed-field wide">
        <SelectField
          label={t('editor.font.family')}
          value={familyValue}
          options={familyOptions}
          error={error('font.family')}
          onChange={(v) =>
            update({
              font: {
                ...layer.font,
                family: v.startsWith(VAR_PREFIX) ? { var: v.slice(VAR_PREFIX.length) } : v,
              },
            })
          }
        />
      </div>
      <SelectField
        label={t('editor.font.weight')}
        value={String(layer.font.weight)}
        options={WEIGHTS.map((w) => ({
          value: String(w),
          label: t(`editor.weight.${w}` as MessageKey),
        }))}
        onChange={(v) => update({ font: { ...layer.font, weight: Number(v) } })}
      />
      <SelectField
        label={t('editor.font.style')}
        value={layer.font.style}
        options={[
          { value: 'normal', label: t('editor.font.normal') },
          { value: 'italic', label: t('editor.font.italic') },
        ]}
        onChange={(v) => update({ font: { ...layer.font, style: v } })}
      />
      <NumberField
        label={t('editor.size')}
        value={layer.size}
        min={1}
        max={1000}
        suffix="px"
        error={error('size')}
        onChange={(v) => v !== undefined && update({ size: v })}
      />
      <NumberField
        label={t('editor.minSize')}
        value={layer.minSize}
        min={1}
        max={1000}
        optional
        suffix="px"
        error={error('minSize')}
        onChange={(v) => (v === undefined ? remove('minSize') : update({ minSize: v }))}
      />
      <ColourField
        label={t('editor.colour')}
        value={layer.colour}
        suggestedName={`${layer.id}Colour`}
        error={error('colour')}
        onChange={(colour) => update({ colour })}
      />
      <SelectField
        label={t('editor.align')}
        value={layer.align}
        options={(['left', 'center', 'right'] as const).map((a) => ({
          value: a,
          label: t(`editor.align.${a}`),
        }))}
        onChange={(align) => update({ align })}
      />
      <SelectField
        label={t('editor.valign')}
        value={layer.verticalAlign}
        options={(['top', 'middle', 'bottom'] as const).map((a) => ({
          value: a,
          label: t(`editor.valign.${a}`),
        }))}
        onChange={(verticalAlign) => update({ verticalAlign })}
      />
      <NumberField
        label={t('editor.lineHeight')}
        value={layer.lineHeight}
        min={0.5}
        max={4}
        step={0.05}
        error={error('lineHeight')}
        onChange={(v) => v !== undefined && update({ lineHeight: v })}
      />
      <NumberField
        label={t('editor.letterSpacing')}
        value={layer.letterSpacing}
        min={-50}
        max={200}
        step={0.5}
        suffix="px"
        error={error('letterSpacing')}
        onChange={(v) => v !== undefined && update({ letterSpacing: v })}
      />
      <SelectField
        label={t('editor.transform')}
        value={layer.transform}
        options={(['none', 'uppercase', 'lowercase', 'capitalize'] as const).map((a) => ({
          value: a,
          label: t(`editor.transform.${a}`),
        }))}
        onChange={(transform) => update({ transform })}
      />
      <NumberField
        label={t('editor.maxLines')}
        value={layer.maxLines}
        min={1}
        max={100}
        optional
        error={error('maxLines')}
        onChange={(v) => (v === undefined ? remove('maxLines') : update({ maxLines: v }))}
      />
      {layer.kind === 'text' ? (
        <SelectField
          label={t('editor.fit')}
          value={layer.fit}
          options={[
            { value: 'shrink', label: t('editor.fit.shrink') },
            { value: 'ellipsis', label: t('editor.fit.ellipsis') },
          ]}
          onChange={(fit) => update({ fit } as Partial<StyledLayer>)}
        />
      ) : null}
    </Section>
  );
}
