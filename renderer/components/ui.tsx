import {
  useEffect,
  useId,
  useRef,
  useState,
  type ButtonHTMLAttributes,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { isApiError } from '../api/http';
import { useT } from '../i18n/i18n';
import { errorHeadline, problemText, type ProblemPlace } from '../i18n/problem-text';
import { Icon, type IconName } from './Icon';
import { useModalDialog } from './use-modal-dialog';

export function Button({
  variant,
  size,
  icon,
  busy,
  children,
  className,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'ghost' | 'danger' | 'danger solid';
  size?: 'sm' | 'lg';
  icon?: IconName;
  busy?: boolean;
}): ReactElement {
  const classes = ['btn', variant, size, !children ? 'icon' : undefined, className]
    .filter(Boolean)
    .join(' ');
  return (
    <button type="button" className={classes} aria-busy={busy || undefined} {...rest}>
      {busy ? <span className="spinner" aria-hidden /> : icon ? <Icon name={icon} /> : null}
      {children}
    </button>
  );
}

/** A labelled control with its hint and its error (the server's per-path message). */
export function Field({
  label,
  hint,
  error,
  optional,
  aside,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | undefined;
  optional?: boolean;
  aside?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}): ReactElement {
  const id = useId();
  const t = useT();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <div className="row between">
        <label className="field-label" htmlFor={id}>
          {label}
          {optional ? <span className="tag">{t('common.optional')}</span> : null}
        </label>
        {aside}
      </div>
      {children({ id, describedBy: describedBy || undefined, invalid: Boolean(error) })}
      {error ? (
        <div className="field-error" id={errorId} role="alert">
          <Icon name="alert" size={14} />
          <span>{error}</span>
        </div>
      ) : null}
      {hint ? (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      ) : null}
    </div>
  );
}

/**
 * An error in the UI's language: a known code's sentence, and each refused value named by its
 * field (and cell) with what to do. Codes and the server's English stay in the API.
 */
export function ErrorBanner({
  error,
  title,
  onRetry,
  place,
}: {
  error: unknown;
  title?: string;
  onRetry?: () => void;
  place?: ProblemPlace;
}): ReactElement | null {
  const t = useT();
  if (!error) return null;
  const problems = isApiError(error) ? error.problems : [];
  const headline = errorHeadline(t, error);
  const detail = error instanceof Error ? error.message : String(error);
  const where: ProblemPlace = place ?? { label: () => null };
  return (
    <div className="banner danger" role="alert">
      <Icon name="alert" />
      <div className="grow stack gap-2">
        <div>
          <div className="banner-title">{title ?? headline ?? t('common.error')}</div>
          {problems.length > 0 ? (
            <ul>
              {problems.slice(0, 12).map((p, i) => (
                <li key={i} title={p.path}>
                  {problemText(t, p, where)}
                </li>
              ))}
              {problems.length > 12 ? (
                <li>{t('problem.more', { count: problems.length - 12 })}</li>
              ) : null}
            </ul>
          ) : headline && title ? (
            <div>{headline}</div>
          ) : headline ? null : (
            <div>{detail}</div>
          )}
        </div>
        {onRetry ? (
          <div>
            <Button size="sm" icon="refresh" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

export function EmptyState({
  icon,
  title,
  children,
  action,
}: {
  icon: IconName;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
}): ReactElement {
  return (
    <div className="empty">
      <div className="empty-icon">
        <Icon name={icon} size={22} />
      </div>
      <h2>{title}</h2>
      {children ? <p>{children}</p> : null}
      {action}
    </div>
  );
}

export function Loading({ label }: { label?: string }): ReactElement {
  const t = useT();
  return (
    <div className="center-fill" role="status">
      <div className="row">
        <span className="spinner" aria-hidden />
        {label ?? t('common.loading')}
      </div>
    </div>
  );
}

/** A radio group drawn as a segmented control; arrow keys move the choice. */
export function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
  id,
}: {
  label: string;
  value: T;
  options: { value: T; label: string; disabled?: boolean }[];
  onChange: (value: T) => void;
  id?: string;
}): ReactElement {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const enabled = options.filter((o) => !o.disabled);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const delta =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (!delta || enabled.length === 0) return;
    event.preventDefault();
    const current = Math.max(
      0,
      enabled.findIndex((o) => o.value === value),
    );
    const next = enabled[(current + delta + enabled.length) % enabled.length];
    if (!next) return;
    onChange(next.value);
    refs.current[options.indexOf(next)]?.focus();
  };
  return (
    <div className="segmented" role="radiogroup" aria-label={label} id={id} onKeyDown={onKeyDown}>
      {options.map((option, index) => (
        <button
          key={option.value}
          ref={(el) => {
            refs.current[index] = el;
          }}
          type="button"
          role="radio"
          aria-checked={option.value === value}
          tabIndex={option.value === value ? 0 : -1}
          disabled={option.disabled}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

export function ProgressBar({
  total,
  succeeded,
  failed,
  label,
  small,
}: {
  total: number;
  succeeded: number;
  failed: number;
  label: string;
  small?: boolean;
}): ReactElement {
  const ok = total > 0 ? (succeeded / total) * 100 : 0;
  const bad = total > 0 ? (failed / total) * 100 : 0;
  return (
    <div
      className={small ? 'progress sm' : 'progress'}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={total}
      aria-valuenow={succeeded + failed}
    >
      <span className="ok" style={{ width: `${ok}%` }} />
      <span className="bad" style={{ width: `${bad}%` }} />
    </div>
  );
}

export function CopyButton({ text, label }: { text: string; label?: string }): ReactElement {
  const t = useT();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 1600);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      size="sm"
      icon={copied ? 'check' : 'copy'}
      onClick={() => {
        void copyText(text).then(() => setCopied(true));
      }}
      aria-label={label ?? t('common.copy')}
    >
      {copied ? t('common.copied') : t('common.copy')}
    </Button>
  );
}

async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (no permission): fall back to a selected textarea.
    const area = document.createElement('textarea');
    area.value = text;
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

/** A modal confirmation on the native <dialog> (focus trap and Escape for free). */
export function ConfirmDialog({
  open,
  title,
  body,
  confirmLabel,
  danger,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  body?: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}): ReactElement {
  const ref = useModalDialog(open);
  const t = useT();
  const titleId = useId();
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={titleId} onClose={onClose}>
      <div className="dialog-body">
        <h2 id={titleId}>{title}</h2>
        {body ? <div className="muted">{body}</div> : null}
      </div>
      <div className="dialog-actions">
        <Button onClick={onClose}>{t('common.cancel')}</Button>
        <Button
          variant={danger ? 'danger solid' : 'primary'}
          onClick={() => {
            onConfirm();
            onClose();
          }}
          autoFocus
        >
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
