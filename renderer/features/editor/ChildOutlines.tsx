import type { ReactElement } from 'react';
import type { DrawnBox } from '../../../shared/drawn-boxes';
import { findLayer } from '../../../shared/stack-children';
import type { Layer, StackLayer } from '../../api/types';

/**
 * The layers of the stack being edited, outlined where the engine drew them: the selected
 * stack's children (or the selected child's and its siblings), the selected one solid.
 */
export function ChildOutlines({
  layers,
  selected,
  boxOf,
  width,
  height,
}: {
  layers: Layer[];
  selected: string | null;
  boxOf: (layer: Layer) => DrawnBox | null;
  width: number;
  height: number;
}): ReactElement | null {
  if (selected === null) return null;
  const found = findLayer(layers, selected);
  if (!found) return null;
  const container: StackLayer | null = found.layer.kind === 'stack' ? found.layer : found.parent;
  if (!container) return null;
  return (
    <>
      {container.layers.map((child) => {
        const box = boxOf(child);
        if (!box) return null;
        const isSelected = child.id === selected;
        return (
          <div
            key={child.id}
            className={`ed-box ed-child${isSelected ? ' selected' : ''}`}
            style={{
              left: `${(box.x / width) * 100}%`,
              top: `${(box.y / height) * 100}%`,
              width: `${(box.width / width) * 100}%`,
              height: `${(box.height / height) * 100}%`,
              ...(box.rotation ? { transform: `rotate(${box.rotation}deg)` } : {}),
            }}
            data-layer-id={child.id}
            data-parent-id={container.id}
            aria-hidden
          >
            {isSelected ? <span className="ed-box-label">{child.id}</span> : null}
          </div>
        );
      })}
    </>
  );
}
