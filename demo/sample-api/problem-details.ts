// RFC 9457 problem details (`application/problem+json`): the sample API's one error format, as a documented API
// would have it. Each type has an entry on the docs page (`#problem-<name>`), which its `type` URI points to.
import { STATUS_CODES, type ServerResponse } from 'node:http';

/** Every problem type the sample API sends, with its title. */
export const PROBLEM_TYPES = {
  'invalid-pet': 'The pet is not valid',
  'invalid-parameter': 'A parameter is not valid',
  'invalid-json': 'The body is not valid JSON',
  'unsupported-media-type': 'The body must be JSON',
  'body-too-large': 'The body is too large',
  unauthorized: 'A valid bearer token is required',
  'pet-not-found': 'There is no pet with this id',
  'not-found': 'There is nothing at this path',
  'method-not-allowed': 'This method is not allowed here',
  'example-error': 'An example error',
  'internal-error': 'The API failed unexpectedly',
} as const;

export type ProblemType = keyof typeof PROBLEM_TYPES;

/** What was wrong with one field of the body (`pointer`, a JSON Pointer) or one query or path `parameter`. */
export type InvalidItem = { pointer: string; detail: string } | { parameter: string; detail: string };

/** Thrown by a route, answered by the API's request handler. */
export class Problem extends Error {
  readonly code = 'ERR_DEMO_PROBLEM';

  constructor(
    readonly type: ProblemType,
    readonly status: number,
    readonly detail: string,
    readonly extra: { errors?: InvalidItem[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'Problem';
  }
}

/**
 * Answers with `problem`. `docsUrl` is the page documenting the types; without one the type is `about:blank`
 * and the title is the status's reason phrase, as RFC 9457 asks.
 */
export function sendProblem(response: ServerResponse, problem: Problem, docsUrl: string, instance: string): void {
  const typed = docsUrl !== '';
  const body = {
    type: typed ? `${docsUrl}#problem-${problem.type}` : 'about:blank',
    title: typed ? PROBLEM_TYPES[problem.type] : STATUS_CODES[problem.status],
    status: problem.status,
    detail: problem.detail,
    instance,
    ...(problem.extra.errors ? { errors: problem.extra.errors } : {}),
  };
  const bytes = Buffer.from(JSON.stringify(body, null, 2) + '\n');
  response.writeHead(problem.status, { 'Content-Type': 'application/problem+json', 'Content-Length': bytes.length, ...problem.extra.headers });
  response.end(bytes);
}
