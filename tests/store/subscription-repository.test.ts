import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors.js';
import { useTempDirs } from './temp-dir.js';

const { tempStore } = useTempDirs();

describe('subscription repository', () => {
  it('starts active with no end date', () => {
    expect(tempStore().subscription.get()).toEqual({ status: 'active', expiresAt: null });
  });

  it('stores a lapse and a renewal', () => {
    const { subscription } = tempStore();
    expect(subscription.set({ status: 'lapsed', expiresAt: null })).toEqual({
      status: 'lapsed',
      expiresAt: null,
    });
    expect(subscription.get().status).toBe('lapsed');
    expect(subscription.set({ status: 'active' })).toEqual({ status: 'active', expiresAt: null });
  });

  it('reads an active subscription past its end date as lapsed', () => {
    const { subscription } = tempStore();
    subscription.set({ status: 'active', expiresAt: '2026-06-30T12:00:00+02:00' });
    const expiresAt = '2026-06-30T10:00:00.000Z';
    expect(subscription.get(new Date('2026-06-30T09:59:59Z'))).toEqual({
      status: 'active',
      expiresAt,
    });
    expect(subscription.get(new Date('2026-06-30T10:00:00Z'))).toEqual({
      status: 'lapsed',
      expiresAt,
    });
  });

  it('rejects an unknown status or an unparseable date and keeps the old state', () => {
    const { subscription } = tempStore();
    expect(() => subscription.set({ status: 'paused' as 'active' })).toThrow(AppError);
    expect(() => subscription.set({ status: 'active', expiresAt: 'next tuesday' })).toThrow(
      AppError,
    );
    expect(subscription.get()).toEqual({ status: 'active', expiresAt: null });
  });
});
