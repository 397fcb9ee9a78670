// Origin A: the documentation pages, the package's build, the pages' bundled scripts, and the two endpoints
// behind the webhook panel.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { connectSourceFor } from 'try-it-console/core';
import { RequestBodyError, readJson } from '../http/request-body.js';
import { sendBytes, sendError, sendJson } from '../http/responses.js';
import type { DeliveryLog } from '../webhook/delivery-log.js';
import { NotifyRequestError, parseNotifyRequest, type DemoNotifier } from '../webhook/demo-notifier.js';
import { fillTemplate, siteHeader, type PageValues } from './page-template.js';
import { readStaticFile } from './static-files.js';

export interface DocsSiteOptions {
  /** Where the pages and the stylesheet live (`demo/`). */
  demoDir: string;
  /** The package's build, served under `/dist/`. */
  distDir: string;
  /** The bundled page scripts, served under `/assets/`. */
  scripts: ReadonlyMap<string, Buffer>;
  /** Read per request: the ports are only known once every server listens. */
  values: () => PageValues;
  notifier: DemoNotifier;
  log: DeliveryLog;
}

// Nothing here is worth caching while someone edits the pages or rebuilds the package.
const COMMON_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
const PAGE = /^\/([a-z0-9-]+\.(?:html|css))$/;

export function createDocsSite(options: DocsSiteOptions): RequestListener {
  return (request, response) => {
    void route(options, request, response).catch(() => {
      if (!response.headersSent) sendError(response, 500, 'internal_error', 'The docs server failed unexpectedly.');
      else response.destroy();
    });
  };
}

async function route(options: DocsSiteOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://docs.invalid');
  const method = request.method ?? 'GET';
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return sendError(response, 400, 'bad_path', 'The path is not valid percent-encoding.');
  }

  if (path === '/demo/notify') {
    if (method !== 'POST') return sendError(response, 405, 'method_not_allowed', 'Use POST.', { Allow: 'POST' });
    return notify(options, request, response);
  }
  if (path === '/demo/deliveries') {
    if (method !== 'GET') return sendError(response, 405, 'method_not_allowed', 'Use GET.', { Allow: 'GET' });
    return sendJson(response, 200, { deliveries: options.log.list() }, COMMON_HEADERS);
  }
  if (method !== 'GET' && method !== 'HEAD') return sendError(response, 405, 'method_not_allowed', 'The docs site only serves GET and HEAD.', { Allow: 'GET, HEAD' });

  if (path === '/favicon.ico') return void response.writeHead(204, COMMON_HEADERS).end();
  if (path.startsWith('/assets/')) {
    const script = options.scripts.get(path.slice('/assets/'.length));
    if (script) return sendBytes(response, 200, 'text/javascript; charset=utf-8', script, COMMON_HEADERS);
  } else if (path.startsWith('/dist/')) {
    const file = await readStaticFile(options.distDir, path.slice('/dist/'.length));
    if (file) return sendBytes(response, 200, file.type, file.body, COMMON_HEADERS);
  } else {
    const name = path === '/' ? 'index.html' : PAGE.exec(path)?.[1];
    const file = name && (await readStaticFile(options.demoDir, name));
    if (file) {
      if (!name.endsWith('.html')) return sendBytes(response, 200, file.type, file.body, COMMON_HEADERS);
      const values = options.values();
      const body = Buffer.from(fillTemplate(file.body.toString('utf8'), { ...values, SITE_HEADER: siteHeader(name) }));
      return sendBytes(response, 200, file.type, body, { ...COMMON_HEADERS, 'Content-Security-Policy': pagePolicy(values) });
    }
  }
  sendError(response, 404, 'not_found', `Nothing at ${path}. The pages are /, /npm-import.html and /code-snippet.html.`);
}

/**
 * The pages' Content-Security-Policy: as strict as README's advice for docs sites allows, so the demo shows the
 * console working under it. Requests leave for the proxy only; the API's origin is not allowed.
 */
function pagePolicy(values: PageValues): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // With --host ::1, any host on the proxy's port (CSP has no IPv6 syntax), which still leaves out the API's.
    `connect-src 'self' ${connectSourceFor(values.PROXY_URL)}`,
    "img-src 'self' blob:",
    "require-trusted-types-for 'script'",
    'trusted-types lit-html',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

async function notify(options: DocsSiteOptions, request: IncomingMessage, response: ServerResponse): Promise<void> {
  // Requiring JSON makes a cross-site form post impossible: another site's page would need a CORS preflight,
  // which this server never grants.
  if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
    return sendError(response, 415, 'json_required', 'Send Content-Type: application/json.');
  }
  try {
    const record = options.notifier.notify(parseNotifyRequest(await readJson(request, 4096)));
    sendJson(response, 202, record, { ...COMMON_HEADERS, Location: `/demo/deliveries#${record.id}` });
  } catch (error) {
    if (error instanceof NotifyRequestError) return sendError(response, 400, 'invalid_notify_request', error.message);
    if (error instanceof RequestBodyError) return sendError(response, error.status, 'invalid_body', error.message);
    throw error;
  }
}
