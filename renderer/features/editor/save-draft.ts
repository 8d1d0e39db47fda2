import { api } from '../../api/client';
import { isApiError } from '../../api/http';
import { useEditorStore } from './editor-store';

/**
 * Saves the draft as a new version. With `overwrite` the save skips the version check (after a
 * conflict the user chose to keep their copy). Resolves true when saved.
 */
export async function saveDraft(options: { overwrite?: boolean } = {}): Promise<boolean> {
  const store = useEditorStore.getState();
  const { id, draft, version } = store;
  if (!id || !draft || store.saveState === 'saving') return false;
  store.setSaveState('saving');
  try {
    const detail = await api.workspace.patch(id, {
      name: draft.name,
      layouts: draft.layouts,
      variables: draft.variables,
      sampleValues: draft.sampleValues,
      ...(options.overwrite ? {} : { baseVersion: version }),
    });
    useEditorStore.getState().markSaved(detail, draft);
    return true;
  } catch (error) {
    const s = useEditorStore.getState();
    if (isApiError(error) && error.status === 409) s.setSaveState('conflict', error);
    else {
      if (isApiError(error) && error.problems.length > 0) s.setProblems(error.problems);
      s.setSaveState('error', error);
    }
    return false;
  }
}
