// Which browser loads the proxy answers. The console only ever calls it with fetch(), which browsers mark
// `Sec-Fetch-Dest: empty` (as they do XHR and EventSource); a browser sent to a proxy URL as a page, a frame, a
// script, a worker or a style sheet marks it so, and gets a refusal rather than the API's content on the proxy's
// origin. A client that sends no `Sec-Fetch-Dest` (curl, an older browser) is not refused: the answer's sandboxing
// `Content-Security-Policy` still applies to it.
import type { IncomingHttpHeaders } from 'node:http';
import { ProxyRefusal } from './refusal.js';

/** Throws a `destination_not_allowed` refusal unless the request is a script's fetch (or says nothing). */
export function checkFetchDestination(headers: IncomingHttpHeaders): void {
  const destination = headers['sec-fetch-dest'];
  if (destination === undefined || destination === 'empty') return;
  throw new ProxyRefusal(
    'destination_not_allowed',
    `This proxy only answers requests a page's script makes with fetch(), not a browser loading a proxy URL itself (Sec-Fetch-Dest: ${destination.slice(0, 40)}); send the request from the API console.`,
  );
}
