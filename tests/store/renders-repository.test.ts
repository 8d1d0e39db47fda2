import { describe, expect, it } from 'vitest';
import { newRenderId } from '../../main/data/ids.js';
import { useTempDirs } from './temp-dir.js';

const { tempStore } = useTempDirs();

describe('renders repository', () => {
  it('makes unique rnd_ ids', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newRenderId()));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^rnd_[A-Za-z0-9_-]{16}$/);
  });

  it('records a single render with generated id and time, and reads it back', () => {
    const { renders } = tempStore();
    const record = renders.insert({
      templateId: 'promo',
      ratio: 'square',
      format: 'png',
      bytes: 1234,
    });
    expect(record).toEqual({
      id: expect.stringMatching(/^rnd_/),
      templateId: 'promo',
      ratio: 'square',
      format: 'png',
      apiKeyId: null,
      batchId: null,
      rowIndex: null,
      outputKey: null,
      bytes: 1234,
      createdAt: expect.any(String),
    });
    expect(renders.get(record.id)).toEqual(record);
    expect(renders.get('rnd_missing')).toBeNull();
  });

  it('records a batch row render with its given id and refuses the id twice', () => {
    const { renders } = tempStore();
    const input = {
      id: 'rnd_row7',
      templateId: 'badge',
      ratio: 'portrait',
      format: 'jpeg',
      apiKeyId: 'key_a',
      batchId: 'bat_1',
      rowIndex: 7,
      outputKey: 'bat_1/7.jpg',
      bytes: 99,
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    expect(renders.insert(input)).toEqual(input);
    expect(renders.get('rnd_row7')).toEqual(input);
    expect(() => renders.insert(input)).toThrow(/UNIQUE|PRIMARY KEY/);
  });
});
