import type { ReactElement } from 'react';
import { serialText } from '../../../shared/serial-numbers';
import { useT } from '../../i18n/i18n';
import { Icon } from '../../components/Icon';
import {
  serialFieldProblems,
  serialNumbering,
  type SerialChoice,
  type SerialField,
} from './serial-choice';

const NUMBER_FIELDS: SerialField[] = ['start', 'step', 'pad'];
const TEXT_FIELDS: SerialField[] = ['prefix', 'suffix'];

/**
 * A serial number's start, step, digits, prefix and suffix, each labelled and checked as the
 * API checks it, with the first three rows' numbers as an example.
 */
export function SerialNumberFields({
  variableName,
  label,
  choice,
  lastRow,
  onChange,
}: {
  variableName: string;
  label: string;
  choice: SerialChoice;
  /** The sheet's last row (0-based): a count down must not pass 0 before it. */
  lastRow: number;
  onChange: (choice: SerialChoice) => void;
}): ReactElement {
  const t = useT();
  const problems = serialFieldProblems(choice, lastRow);
  const numbering = serialNumbering(choice);
  const id = (field: SerialField) => `serial-${variableName}-${field}`;
  const input = (field: SerialField, numeric: boolean) => (
    <label key={field} className="field serial-field" htmlFor={id(field)}>
      <span className="small">{t(`wizard.mapping.serial.${field}`)}</span>
      <input
        id={id(field)}
        className={`input${numeric ? ' num' : ''}`}
        inputMode={numeric ? 'numeric' : undefined}
        maxLength={numeric ? 21 : 40}
        value={choice[field]}
        aria-invalid={problems[field] ? true : undefined}
        aria-describedby={problems[field] ? `${id(field)}-problem` : undefined}
        onChange={(e) => onChange({ ...choice, [field]: e.target.value })}
      />
    </label>
  );
  return (
    <fieldset className="fieldset serial-fields" data-testid={`serial-${variableName}`}>
      <legend className="visually-hidden">{t('wizard.mapping.serial.legend', { label })}</legend>
      <div className="serial-grid">
        {NUMBER_FIELDS.map((field) => input(field, true))}
        {TEXT_FIELDS.map((field) => input(field, false))}
      </div>
      {(
        Object.entries(problems) as [SerialField, NonNullable<(typeof problems)[SerialField]>][]
      ).map(([field, key]) => (
        <span key={field} id={`${id(field)}-problem`} className="field-error" role="alert">
          <Icon name="alert" size={14} />
          {t(`wizard.mapping.serial.${field}`)}: {t(key)}
        </span>
      ))}
      {Object.keys(problems).length === 0 ? (
        <span className="small muted" data-testid={`serial-${variableName}-example`}>
          {t('wizard.mapping.serial.example', {
            first: serialText(numbering, 0),
            second: serialText(numbering, 1),
            third: serialText(numbering, 2),
          })}
        </span>
      ) : null}
    </fieldset>
  );
}
