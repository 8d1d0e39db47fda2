import { useEffect, useRef, useState, type DragEvent, type ReactElement } from 'react';
import { api } from '../api/client';
import { isApiError } from '../api/http';
import { useT } from '../i18n/i18n';
import { native } from '../native/native';
import { Icon } from './Icon';
import { Button } from './ui';

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/** A colour picker with its hex value editable as text (the picker alone is not keyboard-friendly). */
export function ColourInput({
  id,
  label,
  value,
  onChange,
  describedBy,
  invalid,
  onValidityChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  describedBy?: string | undefined;
  invalid?: boolean;
  /** Told whether the typed text is a colour, so a form can refuse to save half-typed text. */
  onValidityChange?: (valid: boolean) => void;
}): ReactElement {
  const t = useT();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const textInvalid = text !== '' && !HEX.test(text);
  useEffect(() => onValidityChange?.(!textInvalid), [textInvalid, onValidityChange]);
  const six = HEX.test(value) ? expandHex(value) : '#000000';
  return (
    <div className="colour-input">
      <input
        type="color"
        value={six}
        onChange={(e) => onChange(e.target.value.toUpperCase())}
        aria-label={label}
        tabIndex={-1}
        // No colour yet: the picker would show black, a colour the user never chose.
        data-unset={value === '' || undefined}
      />
      <input
        id={id}
        className="input mono"
        value={text}
        spellCheck={false}
        aria-label={t('field.colour.hex', { label })}
        aria-describedby={describedBy}
        aria-invalid={invalid || textInvalid || undefined}
        onChange={(e) => {
          const next = e.target.value.trim();
          setText(next);
          if (HEX.test(next)) onChange(next.toUpperCase());
        }}
        placeholder="#1A2B3C"
      />
      {textInvalid ? (
        <span className="field-error colour-input-error" role="alert">
          {t('field.colour.invalid')}
        </span>
      ) : null}
    </div>
  );
}

function expandHex(hex: string): string {
  if (hex.length === 4) {
    return '#' + [...hex.slice(1)].map((c) => c + c).join('');
  }
  return hex.slice(0, 7);
}

export type ImageValue = string | null;

/**
 * An image value: dropped or picked, uploaded to /v1/uploads, kept as its `upl_` id. Shows the
 * local file as a thumbnail; a value that is already a data: URI or path is shown as text.
 */
export function ImageInput({
  id,
  label,
  value,
  onChange,
  describedBy,
  invalid,
  placeholderUrl,
}: {
  id: string;
  label: string;
  value: ImageValue;
  onChange: (value: ImageValue) => void;
  describedBy?: string | undefined;
  invalid?: boolean;
  placeholderUrl?: string | null;
}): ReactElement {
  const t = useT();
  const [localUrl, setLocalUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const urlRef = useRef<string | null>(null);
  useEffect(
    () => () => {
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    },
    [],
  );

  const accept = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    setBusy(true);
    try {
      const upload = await api.uploads.create(file, file.name);
      if (upload.kind !== 'image') throw new Error(t('field.image.drop'));
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = URL.createObjectURL(file);
      setLocalUrl(urlRef.current);
      onChange(upload.id);
    } catch (e) {
      setError(isApiError(e) ? e.message : String((e as Error).message));
    } finally {
      setBusy(false);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.stopPropagation();
    setOver(false);
    void accept(Array.from(event.dataTransfer.files).find((f) => f.type.startsWith('image/')));
  };

  const shown =
    localUrl && value?.startsWith('upl_')
      ? localUrl
      : value?.startsWith('data:image/')
        ? value
        : !value
          ? (placeholderUrl ?? null)
          : null;

  return (
    <div
      className={`image-input${over ? ' over' : ''}`}
      onDragOver={(e) => {
        if (Array.from(e.dataTransfer.types).includes('Files')) {
          e.preventDefault();
          e.stopPropagation();
          setOver(true);
        }
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      aria-invalid={invalid || undefined}
    >
      <div className="image-thumb">
        {shown ? (
          <img src={shown} alt={value ? t('field.image.current') : t('field.image.template')} />
        ) : (
          <Icon name="image" size={20} />
        )}
      </div>
      <div className="grow stack gap-2">
        <div className="small muted">
          {busy ? (
            <span className="row">
              <span className="spinner" aria-hidden /> {t('field.image.uploading')}
            </span>
          ) : value?.startsWith('asset:') ? (
            t('field.image.sample', { name: value.slice('asset:'.length) })
          ) : value && !value.startsWith('upl_') && !value.startsWith('data:') ? (
            <span className="mono">{value}</span>
          ) : (
            t('field.image.drop')
          )}
        </div>
        {/* In a narrow column "Remove image" goes under "Choose a file", not past the box. */}
        <div className="row wrap">
          <Button
            id={id}
            size="sm"
            icon="upload"
            aria-describedby={describedBy}
            aria-label={`${label}: ${t('field.image.pick')}`}
            onClick={() =>
              void native
                .pickFiles('image/png,image/jpeg,image/webp,image/gif,image/svg+xml')
                .then((files) => accept(files[0]))
            }
          >
            {t('field.image.pick')}
          </Button>
          {value ? (
            <Button size="sm" variant="ghost" icon="x" onClick={() => onChange(null)}>
              {t('field.image.remove')}
            </Button>
          ) : null}
        </div>
        {error ? (
          <div className="field-error" role="alert">
            <Icon name="alert" size={14} />
            {error}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** A list of short texts: add, edit, reorder, remove, all from the keyboard. */
export function ListEditor({
  id,
  label,
  value,
  onChange,
  maxItems,
  describedBy,
}: {
  id: string;
  label: string;
  value: string[];
  onChange: (value: string[]) => void;
  maxItems?: number | undefined;
  describedBy?: string | undefined;
}): ReactElement {
  const t = useT();
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const [focusIndex, setFocusIndex] = useState<number | null>(null);
  useEffect(() => {
    if (focusIndex !== null) {
      refs.current[focusIndex]?.focus();
      setFocusIndex(null);
    }
  }, [focusIndex]);
  const set = (index: number, text: string) =>
    onChange(value.map((v, i) => (i === index ? text : v)));
  const move = (index: number, delta: number) => {
    const next = [...value];
    const [item] = next.splice(index, 1);
    next.splice(index + delta, 0, item ?? '');
    onChange(next);
  };
  const full = maxItems !== undefined && value.length >= maxItems;
  return (
    <div className="list-editor" role="group" aria-label={label} aria-describedby={describedBy}>
      {value.map((item, index) => (
        <div className="list-item" key={index}>
          <span className="list-bullet" aria-hidden>
            {index + 1}
          </span>
          <input
            id={index === 0 ? id : undefined}
            ref={(el) => {
              refs.current[index] = el;
            }}
            className="input"
            value={item}
            aria-label={t('field.list.item', { index: index + 1 })}
            onChange={(e) => set(index, e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !full) {
                e.preventDefault();
                const next = [...value];
                next.splice(index + 1, 0, '');
                onChange(next);
                setFocusIndex(index + 1);
              }
            }}
          />
          <Button
            size="sm"
            variant="ghost"
            icon="arrowUp"
            disabled={index === 0}
            aria-label={t('field.list.up', { index: index + 1 })}
            onClick={() => move(index, -1)}
          />
          <Button
            size="sm"
            variant="ghost"
            icon="arrowDown"
            disabled={index === value.length - 1}
            aria-label={t('field.list.down', { index: index + 1 })}
            onClick={() => move(index, 1)}
          />
          <Button
            size="sm"
            variant="ghost"
            icon="x"
            aria-label={t('field.list.remove', { index: index + 1 })}
            onClick={() => onChange(value.filter((_, i) => i !== index))}
          />
        </div>
      ))}
      <div className="row">
        <Button
          size="sm"
          icon="plus"
          id={value.length === 0 ? id : undefined}
          disabled={full}
          onClick={() => {
            onChange([...value, '']);
            setFocusIndex(value.length);
          }}
        >
          {t('field.list.add')}
        </Button>
        {maxItems ? (
          <span className="small subtle">{t('field.list.max', { max: maxItems })}</span>
        ) : null}
      </div>
    </div>
  );
}
