import { useId, type ReactElement } from 'react';
import type { Layer, StackLayer } from '../../api/types';
import { Button } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { childActions } from './child-actions';
import { useEditorStore } from './editor-store';
import { Section } from './inspector-fields';
import { OpacityField } from './OpacityField';

/**
 * A stack's layer in the inspector, in place of a page layer's geometry: the stack sets its box,
 * so it moves up or down the stack's order, is copied or removed, and keeps its opacity.
 */
export function ChildSection({
  layer,
  parent,
}: {
  layer: Layer;
  parent: StackLayer;
}): ReactElement {
  const t = useT();
  const noteId = useId();
  const select = useEditorStore((s) => s.select);
  const index = parent.layers.findIndex((l) => l.id === layer.id);
  const count = parent.layers.length;
  const last = count === 1;
  return (
    <Section title={t('editor.child.section')}>
      <p className="small muted ed-panel-note wide" data-testid="child-place">
        {t('editor.child.place', { n: index + 1, count, stack: parent.id })}
      </p>
      <div className="ed-child-actions wide">
        <Button
          size="sm"
          icon="arrowUp"
          disabled={index <= 0}
          onClick={() => childActions.move(layer.id, -1)}
        >
          {t('editor.child.moveUp')}
        </Button>
        <Button
          size="sm"
          icon="arrowDown"
          disabled={index >= count - 1}
          onClick={() => childActions.move(layer.id, 1)}
        >
          {t('editor.child.moveDown')}
        </Button>
        <Button size="sm" icon="copy" onClick={() => childActions.duplicate(layer.id)}>
          {t('editor.child.duplicate')}
        </Button>
        <Button
          size="sm"
          variant="danger"
          icon="trash"
          disabled={last}
          aria-describedby={last ? noteId : undefined}
          onClick={() => childActions.remove(layer.id)}
        >
          {t('editor.child.remove')}
        </Button>
        <Button size="sm" variant="ghost" icon="folder" onClick={() => select(parent.id)}>
          {t('editor.child.toStack', { stack: parent.id })}
        </Button>
      </div>
      {last ? (
        <p className="field-hint wide" id={noteId} role="status">
          {t('editor.child.last', { id: layer.id, stack: parent.id })}
        </p>
      ) : null}
      <OpacityField layer={layer} />
    </Section>
  );
}
