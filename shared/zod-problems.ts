import type { z } from 'zod';
import type { Problem } from './errors.js';

/** Formats a zod path the way our problems name them: `values.headline`, `records[3].price`. */
export function formatPath(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(body)';
}

/** One problem per zod issue; each unknown key is its own problem. */
export function zodProblems(error: z.ZodError, prefix = ''): Problem[] {
  return issueProblems(error.issues, prefix, []);
}

function issueProblems(
  issues: readonly z.core.$ZodIssue[],
  prefix: string,
  base: readonly PropertyKey[],
): Problem[] {
  return issues.flatMap((issue): Problem[] => {
    const path = [...base, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: formatPath(prefix, [...path, key]),
        message: 'unknown property',
      }));
    }
    if (issue.code === 'invalid_union') {
      const branch = closestBranch(issue.errors);
      if (branch) return issueProblems(branch, prefix, path);
    }
    return [{ path: formatPath(prefix, path), message: issue.message }];
  });
}

/**
 * The union member the value came closest to, so that `records[3]` is blamed rather than the
 * whole `source`: a member whose keys all matched, then the one whose problems lie deepest.
 * Null when two members tie (the value fits neither shape better).
 */
function closestBranch(
  branches: readonly (readonly z.core.$ZodIssue[])[],
): readonly z.core.$ZodIssue[] | null {
  const score = (issues: readonly z.core.$ZodIssue[]) =>
    (issues.some((i) => i.code === 'unrecognized_keys') ? 0 : 1000) +
    Math.max(0, ...issues.map((i) => i.path.length));
  const ranked = branches
    .filter((issues) => issues.length > 0)
    .map((issues) => ({ issues, score: score(issues) }))
    .sort((a, b) => b.score - a.score);
  const [best, next] = ranked;
  return best && (!next || best.score > next.score) ? best.issues : null;
}
