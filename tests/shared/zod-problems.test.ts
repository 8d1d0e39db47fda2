import { describe, expect, it } from 'vitest';
import { CreateBatchRequest } from '../../shared/batch-schemas.js';
import { zodProblems } from '../../shared/zod-problems.js';

function problemsOf(source: unknown) {
  const result = CreateBatchRequest.safeParse({
    templateId: 'tmpl_x',
    sourceType: 'json-array',
    source,
  });
  if (result.success) throw new Error('expected the body to be refused');
  return zodProblems(result.error);
}

describe('validation problems of a union', () => {
  it('blames each record that is not an object, not the whole source', () => {
    expect(problemsOf({ records: [1, { ok: true }, null] }).map((p) => p.path)).toEqual([
      'source.records[0]',
      'source.records[2]',
    ]);
  });

  it('follows the member whose keys matched', () => {
    expect(problemsOf({ records: { a: 1 } }).map((p) => p.path)).toEqual(['source.records']);
    expect(problemsOf({ sourceRef: 'nope' }).map((p) => p.path)).toEqual(['source.sourceRef']);
  });

  it('names the union itself when the value fits no member better', () => {
    expect(problemsOf({}).map((p) => p.path)).toEqual(['source']);
  });
});
