import type { ReactElement } from 'react';
import { useT } from '../i18n/i18n';
import { useAppStore } from '../stores/app-store';
import { Icon } from './Icon';

export function Toasts(): ReactElement {
  const toasts = useAppStore((s) => s.toasts);
  const dismiss = useAppStore((s) => s.dismissToast);
  const t = useT();
  return (
    <div className="toasts" role="region" aria-live="polite" aria-label={t('toasts.label')}>
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={`toast ${toast.kind}`}
          role={toast.kind === 'error' ? 'alert' : 'status'}
        >
          <Icon
            name={
              toast.kind === 'success' ? 'checkCircle' : toast.kind === 'error' ? 'alert' : 'info'
            }
          />
          <div className="grow">{toast.message}</div>
          <button
            className="btn ghost icon sm"
            onClick={() => dismiss(toast.id)}
            aria-label={t('common.dismiss')}
          >
            <Icon name="x" size={14} />
          </button>
        </div>
      ))}
    </div>
  );
}
