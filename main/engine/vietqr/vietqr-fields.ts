import type { VarRef, VietQrSource } from '../../../shared/template-format.js';
import { vietQrBin } from '../../../shared/vietqr-banks.js';
import type { ResolvedValue } from '../../render/render-protocol.js';
import { vietQrPayload, type VietQrTransfer } from './vietqr-payload.js';

export type VietQrFieldName = keyof VietQrSource;

/** A field that cannot go into the payload: the variable it came from, if any, and why. */
export interface VietQrProblem {
  field: VietQrFieldName;
  variable?: string;
  message: string;
}

/** The payload to draw ('' when no bank and no account are given: nothing is drawn). */
export type CheckedVietQr =
  { ok: true; payload: string } | { ok: false; problems: VietQrProblem[] };

/** Most digits EMVCo's amount (tag 54) holds. */
const MAX_AMOUNT_DIGITS = 13;
/** The most characters of a purpose of transaction (tag 62, 08) that banks pass on. */
const MAX_MESSAGE = 25;

/**
 * A VietQR's fields filled from the row's values and checked: the bank known (a BIN or a listed
 * name), the account 6–19 digits, the amount whole đồng over 0, the message at most 25 letters,
 * digits and spaces once Vietnamese marks are dropped (transfer descriptions are unaccented in
 * every bank's core system, so "Thanh toán" arrives as "Thanh toan" either way).
 */
export function checkVietQr(
  source: VietQrSource,
  values: Record<string, ResolvedValue>,
): CheckedVietQr {
  const problems: VietQrProblem[] = [];
  const raw = (field: VietQrFieldName) => fieldValue(source[field], values);
  const fail = (field: VietQrFieldName, message: string) => {
    const ref = source[field];
    problems.push({ field, message, ...(isRef(ref) ? { variable: ref.var } : {}) });
  };
  const bankText = text(raw('bank'));
  const account = text(raw('account'));
  if (!bankText && !account) return { ok: true, payload: '' };

  const bin = bankText ? vietQrBin(bankText) : null;
  if (!bankText) fail('bank', 'a VietQR needs the bank the account is with');
  else if (!bin)
    fail(
      'bank',
      `${quote(bankText)} is not a bank a VietQR knows: give its NAPAS BIN (six digits starting 970, such as 970436) or a bank's name, such as Vietcombank, VietinBank or BIDV`,
    );

  if (!account) fail('account', 'a VietQR needs the account number');
  else if (!/^\d+$/.test(account))
    fail(
      'account',
      `${quote(account)} is not an account number: digits only, without spaces or dashes`,
    );
  else if (account.length < 6 || account.length > 19)
    fail(
      'account',
      `${quote(account)} has ${account.length} digits; an account number has 6 to 19`,
    );

  const amount = checkAmount(raw('amount'));
  if (typeof amount === 'object') fail('amount', amount.problem);

  const message = checkMessage(raw('message'));
  if (typeof message === 'object') fail('message', message.problem);

  if (problems.length > 0 || !bin) return { ok: false, problems };
  const transfer: VietQrTransfer = { bin, account };
  if (typeof amount === 'string' && amount) transfer.amount = amount;
  if (typeof message === 'string' && message) transfer.message = message;
  return { ok: true, payload: vietQrPayload(transfer) };
}

type Checked = string | { problem: string };

/** Whole đồng as digits ('' for none): a number, or a text of digits. */
function checkAmount(value: ResolvedValue | number | undefined): Checked {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'number') {
    if (!Number.isInteger(value))
      return { problem: `${value} has decimals; an amount in đồng is a whole number` };
    return wholeAmount(String(value), value);
  }
  const written = text(value);
  if (!written) return '';
  if (/^\d+$/.test(written)) return wholeAmount(written.replace(/^0+(?=\d)/, ''), Number(written));
  if (/^-?\d+([.,]\d+)*$/.test(written))
    return {
      problem: `${quote(written)} is not a whole number of đồng in digits: write it without separators, decimals or sign (50000)`,
    };
  return { problem: `${quote(written)} is not an amount: write the đồng in digits (50000)` };
}

function wholeAmount(digits: string, value: number): Checked {
  if (value <= 0)
    return {
      problem: `an amount must be more than 0 đồng; leave it empty for a code the payer types the amount into`,
    };
  if (digits.length > MAX_AMOUNT_DIGITS)
    return {
      problem: `${digits} đồng is more than a VietQR carries (${MAX_AMOUNT_DIGITS} digits)`,
    };
  return digits;
}

/** The message without Vietnamese marks, checked for length and characters ('' for none). */
function checkMessage(value: ResolvedValue | number | undefined): Checked {
  const written = text(value);
  if (!written) return '';
  const plain = written
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/\s+/g, ' ');
  const bad = [...plain].find((c) => !/[A-Za-z0-9 ]/.test(c));
  if (bad !== undefined)
    return {
      problem: `${quote(written)} holds ${quote(bad)}, which transfer descriptions do not take: use letters, digits and spaces`,
    };
  if (plain.length > MAX_MESSAGE)
    return {
      problem: `${quote(written)} is ${plain.length} characters; a transfer description takes ${MAX_MESSAGE}`,
    };
  return plain;
}

/** A field's value: the literal, or the variable's resolved value (raw, not formatted). */
function fieldValue(
  field: VietQrSource[VietQrFieldName],
  values: Record<string, ResolvedValue>,
): ResolvedValue | number | undefined {
  if (isRef(field)) return values[field.var] ?? null;
  return field;
}

function isRef(field: unknown): field is VarRef {
  return typeof field === 'object' && field !== null && 'var' in field;
}

function text(value: ResolvedValue | number | undefined): string {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value.trim() : '';
}

function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}
