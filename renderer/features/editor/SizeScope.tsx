import { useState, type ReactElement } from 'react';
import { Button } from '../../components/ui';
import { useLanguage, useT } from '../../i18n/i18n';
import { useEditorStore } from './editor-store';
import { applyLayerToAllLayouts } from './layer-ops';
import { useLayoutLabel } from './use-layout-label';

/**
 * Which size an edit changes (the inspector edits one layout at a time) and, for a layer, a way
 * to give every size its content and style while each keeps its own position.
 */
export function SizeScope({ layerId }: { layerId?: string }): ReactElement | null {
  const t = useT();
  const language = useLanguage();
  const label = useLayoutLabel();
  const ratio = useEditorStore((s) => s.ratio);
  // Applying to all sizes matches layers of page 1; later pages are edited per size.
  const page = useEditorStore((s) => s.page);
  const names = useEditorStore((s) => Object.keys(s.draft?.layouts ?? {}).join(','));
  const layout = useEditorStore((s) => s.draft?.layouts[s.ratio]);
  const [done, setDone] = useState<{
    ratio: string;
    text: string;
    /** Sizes that cannot take the layer: offered to leave out. */
    skip?: string[];
  } | null>(null);
  if (!layout) return null;
  const others = names.split(',').filter((n) => n && n !== ratio);
  const size = `${label(ratio)} (${layout.width} × ${layout.height} px)`;
  const list = (items: string[]) =>
    new Intl.ListFormat(language === 'vi' ? 'vi-VN' : 'en-US', { type: 'conjunction' }).format(
      items,
    );
  const apply = (skip: string[] = []) => {
    const store = useEditorStore.getState();
    if (!layerId || !store.draft) return;
    const result = applyLayerToAllLayouts(store.draft, store.ratio, layerId, skip);
    if (result.refused.length > 0) {
      // Said before anything changes: which sizes cannot take the layer, and why.
      const reasons = result.refused.map((refused) =>
        refused.reason === 'other-kind'
          ? t('editor.scope.refused.kind', {
              size: label(refused.name),
              kind: t(`editor.kind.${refused.kind}`).toLowerCase(),
              id: layerId,
            })
          : t('editor.scope.refused.ids', {
              size: label(refused.name),
              ids: list(refused.ids.map((id) => `“${id}”`)),
            }),
      );
      setDone({
        ratio,
        text: t('editor.scope.refused', { reasons: reasons.join(' ') }),
        skip: result.refused.map((refused) => refused.name),
      });
      return;
    }
    store.edit(() => result.template);
    const parts: string[] = [];
    if (result.updated.length > 0)
      parts.push(t('editor.scope.applied', { sizes: list(result.updated.map(label)) }));
    if (result.added.length > 0)
      parts.push(t('editor.scope.added', { sizes: list(result.added.map(label)) }));
    setDone({ ratio, text: parts.join(' ') });
  };
  return (
    <div className="ed-scope" data-testid="size-scope">
      <p className="small ed-scope-text">
        {others.length === 0 ? t('editor.scope.one', { size }) : t('editor.scope.only', { size })}
      </p>
      {layerId && others.length > 0 && page === 0 ? (
        <>
          <Button size="sm" icon="copy" onClick={() => apply()}>
            {t('editor.scope.applyAll')}
          </Button>
          <p className="small muted ed-scope-hint">{t('editor.scope.applyAll.hint')}</p>
        </>
      ) : null}
      <p className="small ed-scope-done" role="status">
        {done?.ratio === ratio ? done.text : null}
      </p>
      {done?.ratio === ratio && done.skip && done.skip.length < others.length ? (
        <Button size="sm" onClick={() => apply(done.skip)}>
          {t('editor.scope.applyOthers')}
        </Button>
      ) : null}
    </div>
  );
}
