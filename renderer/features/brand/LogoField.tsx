import { useState, type DragEvent, type ReactElement } from 'react';
import { Icon } from '../../components/Icon';
import { Button, Field } from '../../components/ui';
import { useT } from '../../i18n/i18n';
import { native } from '../../native/native';

const ACCEPT = 'image/png,image/jpeg,image/webp,image/svg+xml';

/** A logo, picked or dropped, kept as a data: URI so every screen can show it without a request. */
export function LogoField({
  label,
  value,
  onChange,
  error,
  dark,
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  error: string | undefined;
  dark?: boolean;
}): ReactElement {
  const t = useT();
  const [over, setOver] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);

  const read = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setRefused(t('brandKit.logo.notImage', { name: file.name }));
      return;
    }
    setRefused(null);
    const reader = new FileReader();
    reader.onload = () => onChange(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    // The window treats other drops as spreadsheets for the batch wizard.
    event.stopPropagation();
    setOver(false);
    read(event.dataTransfer.files[0]);
  };

  return (
    <Field label={label} error={error ?? refused ?? undefined} optional={dark}>
      {({ id, describedBy }) => (
        <div
          className={`logo-box${dark ? ' dark' : ''}${over ? ' over' : ''}`}
          onDragOver={(e) => {
            if (!Array.from(e.dataTransfer.types).includes('Files')) return;
            e.preventDefault();
            e.stopPropagation();
            setOver(true);
          }}
          onDragLeave={() => setOver(false)}
          onDrop={onDrop}
        >
          <div className="logo-preview">
            {value?.startsWith('data:image/') ? (
              <img src={value} alt={label} />
            ) : (
              <span className="kit-logo-empty small">
                <Icon name="image" size={22} />
                <span>{t('brandKit.logo.drop')}</span>
              </span>
            )}
          </div>
          <div className="row">
            <Button
              id={id}
              size="sm"
              icon="upload"
              aria-describedby={describedBy}
              aria-label={`${label}: ${t('field.image.pick')}`}
              onClick={() => void native.pickFiles(ACCEPT).then((files) => read(files[0]))}
            >
              {t('field.image.pick')}
            </Button>
            {value ? (
              <Button
                size="sm"
                variant="ghost"
                icon="x"
                aria-label={`${label}: ${t('field.image.remove')}`}
                onClick={() => onChange(null)}
              >
                {t('field.image.remove')}
              </Button>
            ) : null}
          </div>
        </div>
      )}
    </Field>
  );
}
