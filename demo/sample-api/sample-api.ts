// The sample "Petstore" API that the docs pages document. It runs on its own origin and sends no CORS headers on
// purpose: a browser page can only reach it through the CORS proxy, so the demo exercises the real proxy path.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestBodyError, readJson } from '../http/request-body.js';
import { sendBytes, sendError, sendJson } from '../http/responses.js';
import { largeInventory } from './large-inventory.js';
import { PetStore, PetValidationError, parsePetInput, type Pet } from './pet-store.js';
import { petPhoto } from './png-image.js';

/** The bearer token `/account` accepts. A demo value, printed on the docs page. */
export const DEMO_TOKEN = 'demo-token';

export interface SampleApiOptions {
  store?: PetStore;
  /** Called after `POST /pets` created a pet (the demo turns it into a webhook). */
  onPetCreated?: (pet: Pet) => void;
}

const MAX_BODY = 64 * 1024;
const MAX_DELAY = 30_000;
const DEFAULT_DELAY = 3_000;

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL, match: RegExpExecArray) => void | Promise<void>;

interface Route {
  pattern: RegExp;
  methods: Partial<Record<string, Handler>>;
}

/** The endpoints, as listed by `GET /`. */
const ENDPOINTS = [
  'GET /pets?tag=&status=&limit=',
  'POST /pets',
  'GET /pets/{id}',
  'PUT /pets/{id}',
  'DELETE /pets/{id}',
  'GET /pets/{id}/photo',
  'GET /inventory',
  'GET /account',
  'GET /slow?delay=3000',
  'GET /status/{code}',
];

export function createSampleApi(options: SampleApiOptions = {}): RequestListener {
  const store = options.store ?? new PetStore();

  const routes: Route[] = [
    { pattern: /^\/$/, methods: { GET: (_q, s) => sendJson(s, 200, { name: 'Petstore sample API', endpoints: ENDPOINTS }) } },
    {
      pattern: /^\/pets$/,
      methods: {
        GET: (_q, s, url) => {
          const limit = Number(url.searchParams.get('limit') ?? NaN);
          sendJson(s, 200, store.list({ tag: url.searchParams.get('tag'), status: url.searchParams.get('status'), limit: Number.isInteger(limit) && limit >= 0 ? limit : undefined }));
        },
        POST: async (q, s) => {
          const pet = store.add(parsePetInput(await readJson(q, MAX_BODY)));
          sendJson(s, 201, pet, { Location: `/pets/${pet.id}` });
          options.onPetCreated?.(pet);
        },
      },
    },
    {
      pattern: /^\/pets\/(\d{1,9})$/,
      methods: {
        GET: (_q, s, _u, m) => withPet(s, store.get(Number(m[1])), m[1]!, (pet) => sendJson(s, 200, pet)),
        PUT: async (q, s, _u, m) => {
          const input = parsePetInput(await readJson(q, MAX_BODY));
          withPet(s, store.replace(Number(m[1]), input), m[1]!, (pet) => sendJson(s, 200, pet));
        },
        DELETE: (_q, s, _u, m) => {
          if (!store.delete(Number(m[1]))) return petNotFound(s, m[1]!);
          s.writeHead(204).end();
        },
      },
    },
    {
      pattern: /^\/pets\/(\d{1,9})\/photo$/,
      methods: { GET: (_q, s, _u, m) => withPet(s, store.get(Number(m[1])), m[1]!, (pet) => sendBytes(s, 200, 'image/png', petPhoto(pet.id), { 'Cache-Control': 'no-store' })) },
    },
    { pattern: /^\/inventory$/, methods: { GET: (_q, s) => sendBytes(s, 200, 'application/json; charset=utf-8', largeInventory()) } },
    {
      pattern: /^\/account$/,
      methods: {
        GET: (q, s) => {
          const authorization = q.headers.authorization ?? '';
          if (!/^Bearer\s+\S+$/i.test(authorization)) {
            return sendError(s, 401, 'missing_token', 'Send Authorization: Bearer <token>. The demo token is on the docs page.', { 'WWW-Authenticate': 'Bearer realm="petstore"' });
          }
          if (authorization.replace(/^Bearer\s+/i, '') !== DEMO_TOKEN) {
            return sendError(s, 401, 'invalid_token', 'That token is not valid.', { 'WWW-Authenticate': 'Bearer realm="petstore", error="invalid_token"' });
          }
          sendJson(s, 200, { id: 7, name: 'Demo Reader', email: 'reader@petstore.example', plan: 'free', adoptions: store.list({ status: 'adopted' }).length });
        },
      },
    },
    {
      pattern: /^\/slow$/,
      methods: {
        GET: async (_q, s, url) => {
          const asked = Number(url.searchParams.get('delay') ?? DEFAULT_DELAY);
          const delay = Number.isFinite(asked) ? Math.min(Math.max(asked, 0), MAX_DELAY) : DEFAULT_DELAY;
          // A client that gives up (Cancel, timeout) ends the wait early instead of leaving a timer behind.
          const gaveUp = new AbortController();
          s.once('close', () => gaveUp.abort());
          try {
            await sleep(delay, undefined, { signal: gaveUp.signal });
          } catch {
            return;
          }
          sendJson(s, 200, { waited: delay });
        },
      },
    },
    {
      pattern: /^\/status\/(\d{3})$/,
      methods: {
        GET: (_q, s, _u, m) => {
          const status = Number(m[1]);
          if (status < 400 || status > 599) return sendError(s, 400, 'unsupported_status', 'Ask for a status from 400 to 599, e.g. /status/404 or /status/503.');
          const headers: Record<string, string> = status === 503 || status === 429 ? { 'Retry-After': '30' } : {};
          sendError(s, status, `example_${status}`, `An example ${status} answer, as the API would send it.`, headers);
        },
      },
    },
  ];

  return (request, response) => {
    void handle(routes, request, response);
  };
}

async function handle(routes: Route[], request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://sample-api.invalid');
  try {
    for (const route of routes) {
      const match = route.pattern.exec(url.pathname);
      if (!match) continue;
      const method = request.method === 'HEAD' ? 'GET' : request.method ?? 'GET';
      const allow = Object.keys(route.methods).join(', ');
      // Answered, but without any Access-Control-* header: a browser preflight to this origin fails, by design.
      if (method === 'OPTIONS') return void response.writeHead(204, { Allow: `${allow}, OPTIONS` }).end();
      const handler = route.methods[method];
      if (!handler) return sendError(response, 405, 'method_not_allowed', `${request.method} is not supported on ${url.pathname}; use ${allow}.`, { Allow: allow });
      return await handler(request, response, url, match);
    }
    sendError(response, 404, 'not_found', `No endpoint at ${url.pathname}. GET / lists them.`);
  } catch (error) {
    if (response.headersSent) return void response.destroy();
    if (error instanceof PetValidationError) return sendJson(response, 422, { error: { code: 'invalid_pet', message: error.message, problems: error.problems } });
    if (error instanceof RequestBodyError) return sendError(response, error.status, error.status === 413 ? 'body_too_large' : 'invalid_json', error.message);
    sendError(response, 500, 'internal_error', 'The sample API failed unexpectedly.');
  }
}

function withPet(response: ServerResponse, pet: Pet | undefined, id: string, then: (pet: Pet) => void): void {
  if (pet) then(pet);
  else petNotFound(response, id);
}

function petNotFound(response: ServerResponse, id: string): void {
  sendError(response, 404, 'pet_not_found', `No pet has id ${id}.`);
}
