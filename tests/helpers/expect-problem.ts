import { expect } from 'vitest';
import type { TestResponse } from './test-server.js';

export interface ProblemBody {
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

/** Asserts a problem+json answer with this status (and code), and returns its body. */
export async function expectProblem(
  res: TestResponse,
  status: number,
  code?: string,
): Promise<ProblemBody> {
  expect(res.status, await res.clone().text()).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  const body = await res.json();
  expect(body.status).toBe(status);
  if (code) expect(body.code).toBe(code);
  expect(body.detail).toEqual(expect.any(String));
  return body as ProblemBody;
}
