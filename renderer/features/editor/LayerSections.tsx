import { useId, useState, type ReactElement } from 'react';
import { api } from '../../api/client';
import type { Layer, Variable } from '../../api/types';
import { Button } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { native } from '../../native/native';
import { useEditorStore } from './editor-store';
import {
  CheckField,
  ColourField,
  NumberField,
  Section,
  SelectField,
  TextField,
} from './inspector-fields';
import { uniqueVariableName } from './layer-ops';
import { PaintEditor } from './PaintEditor';
import { useLayerEdit } from './use-layer-edit';
import { VietQrFields } from './VietQrFields';

type Of<K extends Layer['kind']> = Extract<Layer, { kind: K }>;

function useVariables(): Variable[] {
  return useEditorStore((s) => s.draft?.variables) ?? [];
}

/** Adds a variable (and its sample value) to the draft; returns its name. */
function addVariable(variable: Variable, sample: unknown): void {
  useEditorStore.getState().edit((tpl) => ({
    ...tpl,
    variables: [...tpl.variables, variable],
    sampleValues: { ...tpl.sampleValues, [variable.name]: sample },
  }));
}

/**
 * A text or image layer's link in PDF outputs: a web or mail address ({{placeholders}} allowed)
 * made clickable over the layer's area. Raster images ignore it; empty removes it.
 */
function LinkField({ layer }: { layer: Of<'text'> | Of<'image'> }): ReactElement {
  const t = useT();
  const { update, remove, error } = useLayerEdit(layer);
  return (
    <TextField
      label={t('editor.link')}
      value={layer.link ?? ''}
      mono
      error={error('link')}
      hint={t('editor.link.hint')}
      onChange={(link) => (link.trim() === '' ? remove('link') : update({ link }))}
    />
  );
}

export function TextContentSection({ layer }: { layer: Of<'text'> }): ReactElement {
  const t = useT();
  const { update, error } = useLayerEdit(layer);
  const variables = useVariables();
  const insertable = variables.filter((v) => v.type !== 'image' && v.type !== 'list');
  return (
    <Section title={t('editor.section.text')}>
      <TextField
        label={t('editor.text')}
        value={layer.text}
        multiline
        error={error('text')}
        hint={t('editor.text.hint')}
        onChange={(text) => update({ text })}
      />
      <div className="ed-insert wide">
        <select
          className="select grow"
          aria-label={t('editor.text.insert')}
          value=""
          onChange={(e) => {
            if (e.target.value) update({ text: `${layer.text}{{${e.target.value}}}` }, 'insert');
          }}
        >
          <option value="">{t('editor.text.insert')}</option>
          {insertable.map((v) => (
            <option key={v.name} value={v.name}>
              {`{{${v.name}}}`} {v.label ? `— ${v.label}` : ''}
            </option>
          ))}
        </select>
        <Button
          size="sm"
          icon="plus"
          onClick={() => {
            const name = uniqueVariableName(layer.id, variables);
            const sample = layer.text.replace(/\{\{[^}]*\}\}/g, '').trim() || layer.id;
            addVariable({ name, type: 'text', label: name, required: false }, sample);
            update({ text: `{{${name}}}` }, 'bind');
          }}
        >
          {t('editor.text.newVariable')}
        </Button>
      </div>
      <LinkField layer={layer} />
    </Section>
  );
}

export function ImageSection({ layer }: { layer: Of<'image'> }): ReactElement {
  const t = useT();
  const { update, error } = useLayerEdit(layer);
  const variables = useVariables();
  const id = useEditorStore((s) => s.id);
  const [busy, setBusy] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const images = variables.filter((v) => v.type === 'image');
  const sourceValue = 'var' in layer.source ? `var:${layer.source.var}` : 'asset';
  const upload = async () => {
    const [file] = await native.pickFiles('image/png,image/jpeg,image/webp');
    if (!file || !id) return;
    setBusy(true);
    setUploadError(null);
    try {
      const { asset } = await api.workspace.addAsset(id, file);
      update({ source: { asset } }, 'upload');
    } catch (e) {
      setUploadError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section title={t('editor.section.image')}>
      <SelectField
        label={t('editor.image.source')}
        wide
        value={sourceValue}
        error={error('source')}
        options={[
          ...('asset' in layer.source
            ? [{ value: 'asset', label: t('editor.image.asset', { name: layer.source.asset }) }]
            : []),
          ...images.map((v) => ({
            value: `var:${v.name}`,
            label: t('editor.bind.variable', { name: v.label ?? v.name }),
          })),
        ]}
        onChange={(v) => v.startsWith('var:') && update({ source: { var: v.slice(4) } })}
      />
      <div className="ed-field">
        <span className="ed-label-spacer" aria-hidden>
          &nbsp;
        </span>
        <Button size="sm" icon="upload" busy={busy} onClick={() => void upload()}>
          {t('editor.image.upload')}
        </Button>
      </div>
      {uploadError ? (
        <div className="field-error wide" role="alert">
          {uploadError}
        </div>
      ) : null}
      <RadiusField value={layer.radius} onChange={(radius) => update({ radius })} />
      <SelectField
        label={t('editor.image.fit')}
        wide
        value={layer.fit}
        options={[
          { value: 'cover', label: t('editor.image.cover') },
          { value: 'contain', label: t('editor.image.contain') },
        ]}
        onChange={(fit) => update({ fit })}
      />
      <Slider
        label={t('editor.image.focalX')}
        value={layer.focalPoint.x}
        onChange={(x) => update({ focalPoint: { ...layer.focalPoint, x } })}
      />
      <Slider
        label={t('editor.image.focalY')}
        value={layer.focalPoint.y}
        onChange={(y) => update({ focalPoint: { ...layer.focalPoint, y } })}
      />
      <CheckField
        label={t('editor.image.circle')}
        checked={layer.circle}
        onChange={(circle) => update({ circle })}
      />
      <LinkField layer={layer} />
    </Section>
  );
}

function Slider({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (value: number) => void;
}): ReactElement {
  const id = useId();
  return (
    <div className="ed-field">
      <label htmlFor={id}>
        {label} <span className="num subtle">{Math.round(value * 100)}%</span>
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={1}
        step={0.01}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </div>
  );
}

export function ShapeSection({ layer }: { layer: Of<'shape'> }): ReactElement {
  const t = useT();
  const { update, remove, error } = useLayerEdit(layer);
  return (
    <Section title={t('editor.section.shape')}>
      <SelectField
        label={t('editor.shape.kind')}
        value={layer.shape}
        options={(['rectangle', 'ellipse', 'line'] as const).map((k) => ({
          value: k,
          label: t(`editor.shape.${k}`),
        }))}
        onChange={(shape) => update({ shape })}
      />
      <RadiusField value={layer.radius} onChange={(radius) => update({ radius })} />
      <CheckField
        label={t('editor.shape.hasFill')}
        checked={layer.fill !== undefined}
        onChange={(on) => (on ? update({ fill: '#5B5BD6' }) : remove('fill'))}
      />
      {layer.fill !== undefined ? (
        <PaintEditor
          label={t('editor.shape.fill')}
          value={layer.fill}
          suggestedName={`${layer.id}Fill`}
          error={error('fill')}
          onChange={(fill) => update({ fill })}
        />
      ) : null}
      <CheckField
        label={t('editor.stroke')}
        checked={layer.stroke !== undefined}
        onChange={(on) =>
          on ? update({ stroke: { paint: '#1B1B1F', width: 4 } }) : remove('stroke')
        }
      />
      {layer.stroke ? (
        <>
          <ColourField
            label={t('editor.stroke.colour')}
            value={
              typeof layer.stroke.paint === 'object' && 'type' in layer.stroke.paint
                ? '#000000'
                : layer.stroke.paint
            }
            suggestedName={`${layer.id}Stroke`}
            error={error('stroke')}
            onChange={(paint) => layer.stroke && update({ stroke: { ...layer.stroke, paint } })}
          />
          <NumberField
            label={t('editor.stroke.width')}
            value={layer.stroke.width}
            min={0.5}
            max={200}
            suffix="px"
            onChange={(width) =>
              width !== undefined && layer.stroke && update({ stroke: { ...layer.stroke, width } })
            }
          />
        </>
      ) : null}
    </Section>
  );
}

export function QrSection({ layer }: { layer: Of<'qr'> }): ReactElement {
  const t = useT();
  const { update, error } = useLayerEdit(layer);
  const { value } = layer;
  return (
    <Section title={t('editor.section.qr')}>
      <SelectField
        label={t('editor.qr.source')}
        value={typeof value === 'string' ? 'text' : 'vietqr'}
        wide
        error={error('value')}
        options={[
          { value: 'text', label: t('editor.qr.source.text') },
          { value: 'vietqr', label: t('editor.qr.source.vietqr') },
        ]}
        onChange={(source) =>
          update({
            // A new transfer starts empty, which draws nothing until a bank and account are given.
            value: source === 'text' ? 'https://' : { vietqr: { bank: '', account: '' } },
          })
        }
      />
      {typeof value === 'string' ? (
        <TextField
          label={t('editor.qr.value')}
          value={value}
          mono
          hint={t('editor.text.hint')}
          onChange={(text) => update({ value: text })}
        />
      ) : (
        <VietQrFields layer={layer} source={value.vietqr} />
      )}
      <CodeColourFields layer={layer} foregroundLabel={t('editor.qr.foreground')} />
      <SelectField
        label={t('editor.qr.correction')}
        value={layer.errorCorrection}
        options={(['L', 'M', 'Q', 'H'] as const).map((v) => ({ value: v, label: v }))}
        onChange={(errorCorrection) => update({ errorCorrection })}
      />
    </Section>
  );
}

export function ListSection({ layer }: { layer: Of<'list'> }): ReactElement {
  const t = useT();
  const { update, error } = useLayerEdit(layer);
  const lists = useVariables().filter((v) => v.type === 'list');
  return (
    <Section title={t('editor.section.list')}>
      <SelectField
        label={t('editor.list.items')}
        value={layer.items.var}
        error={error('items')}
        options={lists.map((v) => ({ value: v.name, label: v.label ?? v.name }))}
        onChange={(name) => update({ items: { var: name } })}
      />
      <TextField
        label={t('editor.list.bullet')}
        value={layer.bullet}
        error={error('bullet')}
        onChange={(bullet) => update({ bullet: bullet.slice(0, 4) })}
      />
      <NumberField
        label={t('editor.list.gap')}
        value={layer.gap}
        min={0}
        suffix="px"
        onChange={(gap) => gap !== undefined && update({ gap })}
      />
    </Section>
  );
}

/** A corner radius in pixels (image and shape layers). */
function RadiusField({
  value,
  onChange,
}: {
  value: number;
  onChange: (radius: number) => void;
}): ReactElement {
  const t = useT();
  return (
    <NumberField
      label={t('editor.radius')}
      value={value}
      min={0}
      suffix="px"
      onChange={(radius) => radius !== undefined && onChange(radius)}
    />
  );
}

/** A QR code's or barcode's ink and paper: colours of their own or bound to a variable. */
export function CodeColourFields({
  layer,
  foregroundLabel,
}: {
  layer: Of<'qr'> | Of<'barcode'>;
  foregroundLabel: string;
}): ReactElement {
  const t = useT();
  const { update, error } = useLayerEdit(layer);
  return (
    <>
      <ColourField
        label={foregroundLabel}
        value={layer.foreground}
        suggestedName={`${layer.id}Foreground`}
        error={error('foreground')}
        onChange={(foreground) => update({ foreground })}
      />
      <ColourField
        label={t('editor.qr.background')}
        value={layer.background}
        suggestedName={`${layer.id}Background`}
        error={error('background')}
        onChange={(background) => update({ background })}
      />
    </>
  );
}
