import type { z } from 'zod';

/** Where a problem is, FastAPI-style: the request part, then the path inside it. */
export type IssueLoc = (string | number)[];

/** One problem as FastAPI reports it in a 422's `detail`. */
export interface ValidationProblem {
  loc: IssueLoc;
  msg: string;
  type: string;
}

/** A zod issue's path under `prefix` (`['body', ...]`): symbols as text, indexes as numbers. */
export const issueLoc = (
  prefix: readonly (string | number)[],
  issue: z.core.$ZodIssue,
): IssueLoc => [
  ...prefix,
  ...issue.path.map((key) => (typeof key === 'symbol' ? String(key) : key)),
];

/**
 * A zod error's issues in FastAPI's shape, located under `prefix`. By default each keeps zod's
 * message and names its zod code as the type; `describe` gives a route its own words for them.
 */
export function validationProblems(
  prefix: readonly (string | number)[],
  error: { issues: readonly z.core.$ZodIssue[] },
  describe: (issue: z.core.$ZodIssue, loc: IssueLoc) => Omit<ValidationProblem, 'loc'> = (
    issue,
  ) => ({ msg: issue.message, type: issue.code }),
): ValidationProblem[] {
  return error.issues.map((issue) => {
    const loc = issueLoc(prefix, issue);
    return { loc, ...describe(issue, loc) };
  });
}
