import { useState, type ReactElement } from 'react';
import type { Layer, StackLayer } from '../../api/types';
import { Button } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { selectLayers, selectLayout, useEditorStore } from './editor-store';
import { pageLayers, withPageLayers } from './layout-page';
import {
  LAYER_KINDS,
  layerPath,
  moveInArray,
  newLayer,
  problemAt,
  withFreshIds,
  type LayerKind,
} from './layer-ops';
import { layoutLayers } from '../../../shared/layout-pages';
import { isLastChild } from '../../../shared/stack-children';
import { childActions } from './child-actions';
import { LayerPick } from './LayerPick';

/** Layer actions the panel and the keyboard share. */
export const layerActions = {
  add(kind: LayerKind): void {
    const store = useEditorStore.getState();
    const layout = selectLayout(store);
    if (!store.draft || !layout) return;
    const { layer, variable } = newLayer(store.draft, layout, kind);
    const { ratio, page } = store;
    store.edit((tpl) => ({
      ...tpl,
      variables: variable ? [...tpl.variables, variable] : tpl.variables,
      sampleValues:
        variable && variable.default !== undefined
          ? { ...tpl.sampleValues, [variable.name]: variable.default }
          : tpl.sampleValues,
      layouts: {
        ...tpl.layouts,
        [ratio]: withPageLayers(layout, page, [...pageLayers(layout, page), layer]),
      },
    }));
    store.select(layer.id);
  },
  remove(id: string): void {
    const store = useEditorStore.getState();
    store.updateLayers((layers) => layers.filter((x) => x.id !== id));
    if (store.selected === id) store.select(null);
  },
  duplicate(id: string): void {
    const store = useEditorStore.getState();
    const layout = selectLayout(store);
    const layers = selectLayers(store);
    const layer = layers?.find((l) => l.id === id);
    if (!layout || !layers || !layer) return;
    const copy: Layer = {
      ...withFreshIds(
        layer,
        layoutLayers(layout).map((l) => l.id),
      ),
      x: layer.x + 24,
      y: layer.y + 24,
    };
    const index = layers.indexOf(layer);
    store.updateLayers((current) => {
      const next = [...current];
      next.splice(index + 1, 0, copy);
      return next;
    });
    store.select(copy.id);
  },
  /** +1 brings the layer forward (drawn later), -1 sends it back. */
  restack(id: string, delta: number): void {
    useEditorStore.getState().updateLayers((layers) => {
      const index = layers.findIndex((x) => x.id === id);
      return moveInArray(layers, index, index + delta);
    });
  },
};

/** The layers in z-order, topmost first as in most design tools. */
export function LayersPanel(): ReactElement {
  const t = useT();
  const pageLayersNow = useEditorStore(selectLayers);
  const selected = useEditorStore((s) => s.selected);
  const problems = useEditorStore((s) => s.problems);
  const ratio = useEditorStore((s) => s.ratio);
  const page = useEditorStore((s) => s.page);
  const select = useEditorStore((s) => s.select);
  const [dragged, setDragged] = useState<string | null>(null);
  const layers = pageLayersNow ?? [];
  const top = [...layers].reverse();

  return (
    <aside className="ed-panel ed-layers" aria-label={t('editor.layers')}>
      <div className="ed-panel-head">
        <h2 className="ed-panel-title">{t('editor.layers')}</h2>
        <select
          className="select ed-add"
          aria-label={t('editor.layer.add')}
          value=""
          onChange={(e) => {
            if (e.target.value) layerActions.add(e.target.value as LayerKind);
          }}
        >
          <option value="">{t('editor.layer.add')}</option>
          {LAYER_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`editor.kind.${k}`)}
            </option>
          ))}
        </select>
      </div>
      <ol className="ed-layer-list" aria-label={t('editor.layers.order')}>
        {top.map((layer) => {
          const index = layers.indexOf(layer);
          const problem = problemAt(problems, layerPath(ratio, page, index));
          const isSelected = layer.id === selected;
          return (
            <li
              key={layer.id}
              className={`ed-layer${isSelected ? ' selected' : ''}${dragged === layer.id ? ' dragging' : ''}`}
              draggable
              onDragStart={(e) => {
                // A stack's child keeps its place by its move buttons; only a page's layers drag.
                if ((e.target as HTMLElement).closest('.ed-layer-children')) {
                  e.preventDefault();
                  return;
                }
                setDragged(layer.id);
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/x-layer', layer.id);
              }}
              onDragEnd={() => setDragged(null)}
              onDragOver={(e) => {
                if (dragged) e.preventDefault();
              }}
              onDrop={(e) => {
                e.preventDefault();
                e.stopPropagation();
                if (!dragged || dragged === layer.id) return;
                const from = layers.findIndex((l) => l.id === dragged);
                useEditorStore
                  .getState()
                  .updateLayers((current) => moveInArray(current, from, index));
                setDragged(null);
              }}
            >
              <LayerPick
                layer={layer}
                selected={isSelected}
                problem={problem}
                onPick={() => select(layer.id)}
              />
              {isSelected ? (
                <span className="ed-layer-actions">
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="arrowUp"
                    aria-label={t('editor.layer.forward', { id: layer.id })}
                    disabled={index === layers.length - 1}
                    onClick={() => layerActions.restack(layer.id, 1)}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="arrowDown"
                    aria-label={t('editor.layer.backward', { id: layer.id })}
                    disabled={index === 0}
                    onClick={() => layerActions.restack(layer.id, -1)}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="copy"
                    aria-label={t('editor.layer.duplicate', { id: layer.id })}
                    onClick={() => layerActions.duplicate(layer.id)}
                  />
                  <Button
                    size="sm"
                    variant="ghost"
                    icon="trash"
                    aria-label={t('editor.layer.delete', { id: layer.id })}
                    onClick={() => layerActions.remove(layer.id)}
                  />
                </span>
              ) : null}
              {layer.kind === 'stack' ? (
                <ChildRows stack={layer} depth={1} problemPath={[index]} />
              ) : null}
            </li>
          );
        })}
      </ol>
    </aside>
  );
}

/**
 * A stack's layers under its row, indented, in the stack's order (the first is laid out first):
 * each selectable, and when selected movable within the stack, copied or removed.
 */
function ChildRows({
  stack,
  depth,
  problemPath,
}: {
  stack: StackLayer;
  depth: number;
  problemPath: number[];
}): ReactElement {
  const t = useT();
  const selected = useEditorStore((s) => s.selected);
  const problems = useEditorStore((s) => s.problems);
  const ratio = useEditorStore((s) => s.ratio);
  const page = useEditorStore((s) => s.page);
  const select = useEditorStore((s) => s.select);
  const count = stack.layers.length;
  return (
    <ol className="ed-layer-children" aria-label={t('editor.stack.children', { id: stack.id })}>
      {stack.layers.map((child, index) => {
        const path = [...problemPath, index];
        const problem = problemAt(problems, layerPath(ratio, page, path));
        const isSelected = child.id === selected;
        const last = isLastChild(stack.layers, child.id);
        return (
          <li key={child.id} className={`ed-layer ed-child-row${isSelected ? ' selected' : ''}`}>
            <LayerPick
              layer={child}
              selected={isSelected}
              problem={problem}
              parent={stack.id}
              style={{ paddingLeft: `calc(var(--space-2) + ${depth * 16}px)` }}
              onPick={() => select(child.id)}
            />
            {isSelected ? (
              <span className="ed-layer-actions">
                <Button
                  size="sm"
                  variant="ghost"
                  icon="arrowUp"
                  aria-label={t('editor.child.up', { id: child.id })}
                  disabled={index === 0}
                  onClick={() => childActions.move(child.id, -1)}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  icon="arrowDown"
                  aria-label={t('editor.child.down', { id: child.id })}
                  disabled={index === count - 1}
                  onClick={() => childActions.move(child.id, 1)}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  icon="copy"
                  aria-label={t('editor.layer.duplicate', { id: child.id })}
                  onClick={() => childActions.duplicate(child.id)}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  icon="trash"
                  aria-label={t('editor.layer.delete', { id: child.id })}
                  title={
                    last ? t('editor.child.last', { id: child.id, stack: stack.id }) : undefined
                  }
                  disabled={last}
                  onClick={() => childActions.remove(child.id)}
                />
              </span>
            ) : null}
            {child.kind === 'stack' ? (
              <ChildRows stack={child} depth={depth + 1} problemPath={path} />
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
