/** The class that colours a status code, in the response panel and the history list alike: 3xx as 5xx, a warning. */
export function statusClassOf(status: number): string {
  return status < 300 ? 'ok' : status < 400 ? 'redirect' : status < 500 ? 'client-error' : 'server-error';
}
