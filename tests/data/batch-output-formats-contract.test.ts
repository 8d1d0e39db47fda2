import { describe, expect, it } from 'vitest';
import { newBatch, sourceRecords } from './batch-fixtures.js';
import { useCoreDataImplementations } from './core-data-implementations.js';

const implementations = useCoreDataImplementations();

describe.each(implementations.all)('batch output formats on %s', (_name, open) => {
  it('keeps an avif or pdf batch with its output options, and a batch without them as {}', async () => {
    const data = await open();
    const pdf = data.batches.newId();
    await data.commands.createBatch({
      batch: newBatch(pdf, 1, {
        target: 'a4',
        format: 'pdf',
        outputOptions: { cropMarks: true },
      }),
      records: sourceRecords(1),
    });
    const avif = data.batches.newId();
    await data.commands.createBatch({
      batch: newBatch(avif, 1, {
        format: 'avif',
        outputOptions: { scale: 2, background: 'transparent' },
      }),
      records: sourceRecords(1),
    });
    const plain = data.batches.newId();
    await data.commands.createBatch({ batch: newBatch(plain, 1), records: sourceRecords(1) });
    expect(await data.batches.get(pdf)).toMatchObject({
      target: 'a4',
      format: 'pdf',
      outputOptions: { cropMarks: true },
    });
    expect(await data.batches.get(avif)).toMatchObject({
      format: 'avif',
      outputOptions: { scale: 2, background: 'transparent' },
    });
    expect((await data.batches.get(plain))?.outputOptions).toEqual({});
  });
});
