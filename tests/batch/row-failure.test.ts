import { describe, expect, it } from 'vitest';
import { Errors } from '../../shared/errors.js';
import { rowFailure, sheetsStopReason } from '../../main/batch/row-failure.js';

const secretPath = '/home/an/payroll-2026-confidential/salary-slip.png';

describe('row failures', () => {
  it('keeps the whole message for the batch and only the code and fields for what leaves the machine', () => {
    const failure = rowFailure(Errors.imageInvalid('values.photo', `no file at "${secretPath}"`));
    expect(failure.error).toContain(secretPath);
    expect(failure).toMatchObject({ errorCode: 'image-invalid', fields: ['values.photo'] });
  });

  it('says why sheets could not be drawn by code and field, never quoting a value', () => {
    const reason = sheetsStopReason(
      Errors.imageInvalid('values.photo', `no file at "${secretPath}"`),
    );
    expect(reason).toBe('the sheets could not be drawn (image-invalid at values.photo)');
    expect(sheetsStopReason(new Error(`EACCES: ${secretPath}`))).toBe(
      'the sheets could not be drawn (render-failed)',
    );
  });
});
