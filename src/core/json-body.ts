/**
 * A JSON object or array: what a body without a Content-Type most likely means to be, rather than plain text or form
 * data. Shared by the console's send and `<code-snippet>` alone, which must not pull in the request preparation.
 */
export function isJsonDocument(body: string): boolean {
  if (!/^\s*[[{]/.test(body)) return false;
  // Checked on every edit: past 1 MiB (tens of milliseconds to parse) the first character is taken at its word.
  if (body.length > 1 << 20) return true;
  try {
    JSON.parse(body);
    return true;
  } catch {
    return false;
  }
}

// application/json and the structured-syntax types built on it (application/problem+json, application/vnd.api+json).
const JSON_MEDIA_TYPE = /^\s*application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** True for a Content-Type (or its media type alone) of JSON: `application/json`, `application/problem+json`… */
export function isJsonContentType(contentType: string): boolean {
  return JSON_MEDIA_TYPE.test(contentType);
}

/**
 * The value of the `Content-Type` header among `headers`, whatever the case of its name and spaces around it (a name
 * as typed, which a send trims); `undefined` without one.
 */
export function contentTypeOf(headers: Readonly<Record<string, string>>): string | undefined {
  return Object.entries(headers).find(([name]) => name.trim().toLowerCase() === 'content-type')?.[1];
}

/**
 * Why a body labelled as JSON does not parse (the parser's words, with the position), or `undefined` when it parses or
 * is not checked: not labelled JSON, empty (a default Content-Type on every request), over 1 MiB (tens of
 * milliseconds to parse on every edit), or holding a `{{placeholder}}`, whose value the text as written does not show.
 */
function labelledJsonProblem(contentType: string, body: string): string | undefined {
  if (!isJsonContentType(contentType) || body.trim() === '' || body.length > 1 << 20 || body.includes('{{')) return undefined;
  // The console checks its body on every render, then prepare() and execute() check it again on send: the same text
  // is parsed once.
  if (lastChecked?.body === body) return lastChecked.problem;
  let problem: string | undefined;
  try {
    JSON.parse(body);
  } catch (error) {
    problem = (error as Error).message;
  }
  lastChecked = { body, problem };
  return problem;
}

/** How `invalidJsonWarning`'s warning starts: the console marks the body field invalid while one is shown. */
export const INVALID_JSON_WARNING_START = 'The body is not valid JSON';

/** The last body `labelledJsonProblem` parsed, and what it found. */
let lastChecked: { body: string; problem: string | undefined } | undefined;

/**
 * The warning of a body labelled JSON that does not parse, or `undefined`. Read in the body as written, which the
 * reader sees and the parser's position counts in: the resolved one would quote an environment's values (an API key
 * put in unquoted) and count past them.
 */
export function invalidJsonWarning(writtenBody: string | undefined, headers: Record<string, string>): string | undefined {
  const contentType = contentTypeOf(headers);
  const problem = writtenBody !== undefined && contentType !== undefined ? labelledJsonProblem(contentType, writtenBody) : undefined;
  return problem === undefined ? undefined : `${INVALID_JSON_WARNING_START}, although its Content-Type is ${contentType}: ${problem}. The API will likely refuse it (400); fix the JSON, or change the Content-Type.`;
}

/** The warning of a JSON body without Content-Type, given how it goes (`this snippet sends it as…`), and the fix. */
export function untypedJsonWarning(sentAs: string): string {
  return `This body is JSON, but with no Content-Type header ${sentAs}, which an API reading JSON may refuse or ignore. Add the header Content-Type: application/json.`;
}

/**
 * The console's warning of a JSON body sent without Content-Type, beside which it offers to add the header. Marked pure,
 * so that an entry that does not use it (`<code-snippet>` alone) leaves it out.
 */
export const UNTYPED_JSON_WARNING = /*#__PURE__*/ untypedJsonWarning('it is sent as text/plain;charset=UTF-8 (what fetch gives a text body)');
