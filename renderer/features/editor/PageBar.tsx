import type { ReactElement } from 'react';
import { Button, Segmented } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { selectLayout, useEditorStore } from './editor-store';
import { canAddPage, pageTotal } from './layout-page';

/**
 * The pages of the layout being edited (a badge's front and back, a carousel's slides): which
 * one the canvas, the layers and the preview show, and adding or removing one. Arrow keys move
 * between pages as in any radio group.
 */
export function PageBar(): ReactElement | null {
  const t = useT();
  const page = useEditorStore((s) => s.page);
  // Labels as one string, so the bar re-renders when pages change, not on every edit.
  const labels = useEditorStore((s) => {
    const layout = selectLayout(s);
    return layout ? (layout.morePages ?? []).map((p) => p.label ?? '').join('\u0000') : null;
  });
  const total = useEditorStore((s) => {
    const layout = selectLayout(s);
    return layout ? pageTotal(layout) : 0;
  });
  const canAdd = useEditorStore((s) => {
    const layout = selectLayout(s);
    return layout ? canAddPage(layout) : false;
  });
  if (labels === null || total === 0) return null;
  const named = labels.split('\u0000');
  const options = Array.from({ length: total }, (_, index) => {
    const label = index === 0 ? '' : (named[index - 1] ?? '');
    return {
      value: String(index),
      label: label
        ? t('editor.page.named', { n: index + 1, label })
        : t('editor.page.n', { n: index + 1 }),
    };
  });
  const store = () => useEditorStore.getState();
  return (
    <div className="ed-pages" data-testid="editor-pages">
      {total > 1 ? (
        <Segmented
          label={t('editor.page')}
          value={String(page)}
          onChange={(value) => store().setPage(Number(value))}
          options={options}
        />
      ) : (
        <span className="small muted">{t('editor.page.one')}</span>
      )}
      <Button
        size="sm"
        variant="ghost"
        icon="plus"
        disabled={!canAdd}
        onClick={() => store().addPage()}
      >
        {t('editor.page.add')}
      </Button>
      {total > 1 ? (
        <Button
          size="sm"
          variant="ghost"
          icon="trash"
          aria-label={t('editor.page.remove', { n: page + 1 })}
          title={t('editor.page.remove', { n: page + 1 })}
          onClick={() => store().removePage()}
        />
      ) : null}
    </div>
  );
}
