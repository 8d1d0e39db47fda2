import { describe, expect, it } from 'vitest';
import { VisibleWhen } from '../../shared/template-format.js';
import { zodProblems } from '../../shared/zod-problems.js';

const problems = (rule: unknown) => {
  const parsed = VisibleWhen.safeParse(rule);
  return parsed.success ? [] : zodProblems(parsed.error, 'visibleWhen');
};

/** A rule `depth` groups deep around one condition. */
const nested = (depth: number): unknown =>
  depth === 0 ? { var: 'a', notEmpty: true } : { all: [nested(depth - 1)] };

describe('the visibleWhen schema', () => {
  it("accepts today's forms and the new operators, grouped", () => {
    expect(problems({ var: 'badge', notEmpty: true })).toEqual([]);
    expect(problems({ var: 'tier', equals: 'gold' })).toEqual([]);
    expect(
      problems({
        any: [
          { var: 'price', gt: 100, lt: 200 },
          {
            all: [
              { var: 'age', between: [18, 25] },
              { var: 'tier', in: ['a', 'b'] },
            ],
          },
        ],
      }),
    ).toEqual([]);
  });

  it('nests groups at most 4 deep and holds at most 32 conditions', () => {
    expect(problems(nested(4))).toEqual([]);
    expect(problems(nested(5))).toEqual([
      { path: 'visibleWhen', message: 'all / any groups nest at most 4 deep; this rule nests 5' },
    ]);
    const many = (n: number) => ({
      any: Array.from({ length: n }, () => ({
        all: [
          { var: 'a', gt: 1 },
          { var: 'b', lt: 2 },
        ],
      })),
    });
    expect(problems(many(16))).toEqual([]);
    expect(problems(many(17))).toEqual([
      { path: 'visibleWhen', message: 'a rule holds at most 32 conditions; this one holds 34' },
    ]);
  });

  it('names the path of an unknown key, a reversed range, an empty group or a non-number', () => {
    expect(problems({ all: [{ var: 'a', greater: 1 }] })).toEqual([
      { path: 'visibleWhen.all[0].greater', message: 'unknown property' },
    ]);
    expect(problems({ any: [{ var: 'a', between: [5, 1] }] })).toEqual([
      { path: 'visibleWhen.any[0].between', message: 'between takes [low, high] with low ≤ high' },
    ]);
    expect(problems({ all: [] }).map((p) => p.path)).toEqual(['visibleWhen.all']);
    expect(problems({ var: 'a', gt: '5' }).map((p) => p.path)).toEqual(['visibleWhen.gt']);
    expect(problems({ var: 'a', in: [] }).map((p) => p.path)).toEqual(['visibleWhen.in']);
  });
});
