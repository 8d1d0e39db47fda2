import type { SerialNumbering } from '../../../shared/batch-schemas';
import { MAX_SERIAL, MAX_SERIAL_AFFIX, MAX_SERIAL_PAD } from '../../../shared/batch-limits';
import { serialNumber } from '../../../shared/serial-numbers';
import type { MessageKey } from '../../i18n/i18n';

/** The wizard's serial-number fields as typed (text, so a half-typed "-" stays in the box). */
export interface SerialChoice {
  kind: 'serial';
  start: string;
  step: string;
  pad: string;
  prefix: string;
  suffix: string;
}

export type SerialField = Exclude<keyof SerialChoice, 'kind'>;

export const NEW_SERIAL: SerialChoice = {
  kind: 'serial',
  start: '1',
  step: '1',
  pad: '0',
  prefix: '',
  suffix: '',
};

const INTEGER = /^-?\d+$/;

/**
 * What is wrong with each field, as the API would refuse it, and a count down that the sheet's
 * last row would take below 0 (`lastRow`, 0-based).
 */
export function serialFieldProblems(
  choice: SerialChoice,
  lastRow: number,
): Partial<Record<SerialField, MessageKey>> {
  const problems: Partial<Record<SerialField, MessageKey>> = {};
  const start = choice.start.trim();
  const step = choice.step.trim();
  const pad = choice.pad.trim();
  if (start !== '' && (!INTEGER.test(start) || Number(start) < 0 || Number(start) > MAX_SERIAL))
    problems.start = 'wizard.mapping.serial.notWhole';
  if (step !== '' && (!INTEGER.test(step) || Math.abs(Number(step)) > 1_000_000_000))
    problems.step = 'wizard.mapping.serial.notInteger';
  if (pad !== '' && (!INTEGER.test(pad) || Number(pad) < 0 || Number(pad) > MAX_SERIAL_PAD))
    problems.pad = 'wizard.mapping.serial.padRange';
  if (choice.prefix.length > MAX_SERIAL_AFFIX) problems.prefix = 'wizard.mapping.serial.tooLong';
  if (choice.suffix.length > MAX_SERIAL_AFFIX) problems.suffix = 'wizard.mapping.serial.tooLong';
  if (!problems.start && !problems.step && serialNumber(serialNumbering(choice), lastRow) < 0)
    problems.step = 'wizard.mapping.serial.belowZero';
  return problems;
}

/** The binding's numbering: blank fields left to the API's defaults. */
export function serialNumbering(choice: SerialChoice): SerialNumbering {
  const numbering: SerialNumbering = {};
  const whole = (text: string) => (INTEGER.test(text.trim()) ? Number(text.trim()) : undefined);
  const start = whole(choice.start);
  const step = whole(choice.step);
  const pad = whole(choice.pad);
  if (start !== undefined) numbering.start = start;
  if (step !== undefined) numbering.step = step;
  if (pad !== undefined && pad > 0) numbering.pad = pad;
  if (choice.prefix) numbering.prefix = choice.prefix;
  if (choice.suffix) numbering.suffix = choice.suffix;
  return numbering;
}
