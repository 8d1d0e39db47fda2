import { useEffect, useId, useRef, useState, type ReactElement } from 'react';
import type { Layer, StackLayer } from '../../api/types';
import { useT } from '../../i18n/i18n';
import {
  selectBackground,
  selectLayers,
  selectLayout,
  selectSelectedLayer,
  selectSelectedParent,
  useEditorStore,
} from './editor-store';
import { ChildSection } from './ChildSection';
import { findLayer } from '../../../shared/stack-children';
import { Button } from '../../components/ui';
import { NumberField, Section } from './inspector-fields';
import { layerIdFromName } from './layer-ops';
import { lengthUnit } from './layout-unit';
import {
  ImageSection,
  ListSection,
  QrSection,
  ShapeSection,
  TextContentSection,
} from './LayerSections';
import { VisibilityRuleBuilder } from './VisibilityRuleBuilder';
import { BarcodeSection } from './BarcodeSection';
import { PaintEditor } from './PaintEditor';
import { KeepSection } from './KeepSection';
import { SizeScope } from './SizeScope';
import { TextStyleSection } from './TextStyleSection';
import { useLayerEdit } from './use-layer-edit';
import { OpacityField } from './OpacityField';
import { layoutLayers } from '../../../shared/layout-pages';

/** Properties of the selected layer, or of the canvas when nothing is selected. */
export function Inspector(): ReactElement {
  const t = useT();
  const layer = useEditorStore(selectSelectedLayer);
  const key = useInspectorKey(layer ?? null);
  return (
    <aside className="ed-panel ed-inspector" aria-label={t('editor.inspector')}>
      {layer ? <LayerInspector key={key} layer={layer} /> : <CanvasInspector />}
    </aside>
  );
}

/**
 * One inspector per selected layer, kept through a rename (or its undo): remounting it there
 * dropped the focus to the page, so the next keys were lost and Backspace deleted the layer.
 * A rename is the selected id changing in place: the old id gone, the same position taken.
 */
function useInspectorKey(layer: Layer | null): string | null {
  const layers = useEditorStore(selectLayers);
  const last = useRef<{ id: string; index: string; key: string } | null>(null);
  if (!layer || !layers) {
    last.current = null;
    return null;
  }
  // Where it sits, at the top or inside stacks: a renamed child keeps its place too.
  const index = findLayer(layers, layer.id)?.path.join(',') ?? '';
  const previous = last.current;
  const renamed =
    previous !== null &&
    previous.id !== layer.id &&
    previous.index === index &&
    findLayer(layers, previous.id) === null;
  const key = previous && (previous.id === layer.id || renamed) ? previous.key : layer.id;
  last.current = { id: layer.id, index, key };
  return key;
}

function CanvasInspector(): ReactElement {
  const t = useT();
  const background = useEditorStore(selectBackground);
  const setBackground = useEditorStore((s) => s.setBackground);
  if (!background) return <div />;
  return (
    <>
      <h2 className="ed-panel-title">{t('editor.canvasProps')}</h2>
      <p className="small muted ed-panel-note">{t('editor.noSelection')}</p>
      <SizeScope />
      <Section title={t('editor.section.background')}>
        <PaintEditor
          label={t('editor.background')}
          value={background}
          suggestedName="background"
          onChange={(next) => setBackground(next, 'background')}
        />
      </Section>
    </>
  );
}

function LayerInspector({ layer }: { layer: Layer }): ReactElement {
  const t = useT();
  const parent = useEditorStore(selectSelectedParent);
  return (
    <>
      <h2 className="ed-panel-title">
        {t('editor.layerProps', { kind: t(`editor.kind.${layer.kind}`) })}
      </h2>
      <LayerIdField layer={layer} />
      <SizeScope layerId={layer.id} />
      {/* A stack places its layers: theirs is a place in its order, not a box. */}
      {parent ? <ChildSection layer={layer} parent={parent} /> : <GeometrySection layer={layer} />}
      {layer.kind === 'text' ? <TextContentSection layer={layer} /> : null}
      {layer.kind === 'text' || layer.kind === 'list' ? <TextStyleSection layer={layer} /> : null}
      {layer.kind === 'image' ? <ImageSection layer={layer} /> : null}
      {layer.kind === 'image' ? <KeepSection layer={layer} /> : null}
      {layer.kind === 'shape' ? <ShapeSection layer={layer} /> : null}
      {layer.kind === 'qr' ? <QrSection layer={layer} /> : null}
      {layer.kind === 'barcode' ? <BarcodeSection layer={layer} /> : null}
      {layer.kind === 'list' ? <ListSection layer={layer} /> : null}
      {layer.kind === 'stack' ? <StackNote stack={layer} /> : null}
      <VisibilityRuleBuilder layer={layer} />
    </>
  );
}

/** Where a stack's layers are edited: under it in the layers panel, or inside it on the canvas. */
function StackNote({ stack }: { stack: StackLayer }): ReactElement {
  const t = useT();
  const select = useEditorStore((s) => s.select);
  const first = stack.layers[0];
  return (
    <Section title={t('editor.stack.layers')}>
      <p className="small muted ed-panel-note wide">{t('editor.stack.hint')}</p>
      {first ? (
        <div className="wide">
          <Button size="sm" icon="layers" onClick={() => select(first.id)}>
            {t('editor.stack.editFirst', { id: first.id })}
          </Button>
        </div>
      ) : null}
    </Section>
  );
}

/** A page's layer: where it sits, how large, turned and opaque. */
function GeometrySection({ layer }: { layer: Layer }): ReactElement {
  const t = useT();
  const { update, remove, error } = useLayerEdit(layer);
  // A print layout's geometry is edited in its page's unit.
  const unit = lengthUnit(useEditorStore(selectLayout));
  return (
    <Section title={t('editor.section.geometry')}>
      <NumberField
        label="X"
        value={unit.show(layer.x)}
        step={unit.step}
        suffix={unit.suffix}
        error={error('x')}
        onChange={(x) => x !== undefined && update({ x: unit.read(x) })}
      />
      <NumberField
        label="Y"
        value={unit.show(layer.y)}
        step={unit.step}
        suffix={unit.suffix}
        error={error('y')}
        onChange={(y) => y !== undefined && update({ y: unit.read(y) })}
      />
      <NumberField
        label={t('editor.width')}
        value={unit.show(layer.width)}
        min={unit.step}
        step={unit.step}
        suffix={unit.suffix}
        error={error('width')}
        onChange={(width) => width !== undefined && update({ width: unit.read(width) })}
      />
      <NumberField
        label={t('editor.height')}
        value={unit.show(layer.height)}
        min={unit.step}
        step={unit.step}
        suffix={unit.suffix}
        error={error('height')}
        onChange={(height) => height !== undefined && update({ height: unit.read(height) })}
      />
      <NumberField
        label={t('editor.rotation')}
        value={layer.rotation ?? 0}
        min={-360}
        max={360}
        suffix="°"
        error={error('rotation')}
        onChange={(rotation) =>
          rotation === undefined || rotation === 0 ? remove('rotation') : update({ rotation })
        }
      />
      <OpacityField layer={layer} />
    </Section>
  );
}

/** The layer's id, renamed on Enter or when the field loses focus (ids must stay unique). */
function LayerIdField({ layer }: { layer: Layer }): ReactElement {
  const t = useT();
  const id = useId();
  const [text, setText] = useState(layer.id);
  const [problem, setProblem] = useState<string | null>(null);
  // A name in Vietnamese (or with spaces) is kept as an id without marks: said once, here.
  const [keptAs, setKeptAs] = useState<{ typed: string; id: string } | null>(null);
  useEffect(() => setText(layer.id), [layer.id]);
  const commit = () => {
    const typed = text.trim();
    const next = layerIdFromName(typed);
    if (next === layer.id) {
      setText(layer.id);
      return setProblem(null);
    }
    const store = useEditorStore.getState();
    const layout = selectLayout(store);
    if (next === null) return setProblem(t('editor.layerId.invalid'));
    if (layout && layoutLayers(layout).some((l) => l.id === next))
      return setProblem(t('editor.layerId.taken'));
    setProblem(null);
    setKeptAs(next === typed ? null : { typed, id: next });
    store.updateLayer(layer.id, (l) => ({ ...l, id: next }));
    store.select(next);
  };
  return (
    <div className="ed-field wide ed-id">
      <label htmlFor={id}>{t('editor.layerId')}</label>
      <input
        id={id}
        className="input"
        value={text}
        spellCheck={false}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-e` : keptAs ? `${id}-h` : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
          if (e.key === 'Escape') setText(layer.id);
        }}
      />
      {problem ? (
        <div className="field-error" id={`${id}-e`} role="alert">
          {problem}
        </div>
      ) : keptAs && keptAs.id === layer.id ? (
        <div className="field-hint" id={`${id}-h`} role="status">
          {t('editor.layerId.keptAs', { typed: keptAs.typed, id: keptAs.id })}
        </div>
      ) : null}
    </div>
  );
}
