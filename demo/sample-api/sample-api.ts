// The sample "Petstore" API that the docs pages document. It runs on its own origin and sends no CORS headers on
// purpose: a browser page can only reach it through the CORS proxy, so the demo exercises the real proxy path.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestBodyError, readJson } from '../http/request-body.js';
import { sendBytes, sendJson } from '../http/responses.js';
import { acceptsGzip, catalog } from './catalog.js';
import { CHANGELOG } from './changelog.js';
import { largeInventory } from './large-inventory.js';
import { PET_STATUSES, PetStore, PetValidationError, parsePetInput, type Pet, type PetStatus } from './pet-store.js';
import { petsAsXml } from './pets-xml.js';
import { petPhoto } from './png-image.js';
import { Problem, sendProblem } from './problem-details.js';
import { zipArchive } from './zip-archive.js';

/** The bearer token `/account` accepts. A demo value, printed on the docs page. */
export const DEMO_TOKEN = 'demo-token';

export interface SampleApiOptions {
  store?: PetStore;
  /** Called after `POST /pets` created a pet (the demo turns it into a webhook). */
  onPetCreated?: (pet: Pet) => void;
  /**
   * The docs page, read per request: each problem's `type` is `<docsUrl>#problem-<name>`, its entry on that page.
   * @default () => '' (every type is `about:blank`)
   */
  docsUrl?: () => string;
}

const MAX_BODY = 64 * 1024;
const MAX_DELAY = 30_000;
const DEFAULT_DELAY = 3_000;
const MAX_LIMIT = 100;
const MAX_EVENTS = 50;
const MAX_EVENT_INTERVAL = 5_000;

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL, match: RegExpExecArray) => void | Promise<void>;

interface Route {
  pattern: RegExp;
  methods: Partial<Record<string, Handler>>;
}

/** The endpoints, as listed by `GET /`. */
const ENDPOINTS = [
  'GET /pets?tag=&status=&limit=',
  'GET /pets.xml?tag=&status=&limit=',
  'POST /pets',
  'GET /pets/{id}',
  'GET /pets/events?count=10&interval=500',
  'PUT /pets/{id}',
  'DELETE /pets/{id}',
  'GET /pets/{id}/photo',
  'GET /inventory',
  'GET /catalog',
  'GET /export',
  'GET /changelog',
  'GET /v1/pets',
  'GET /account',
  'GET /slow?delay=3000',
  'GET /status/{code}',
];

export function createSampleApi(options: SampleApiOptions = {}): RequestListener {
  const store = options.store ?? new PetStore();
  const listPets = (url: URL): Pet[] => {
    const status = url.searchParams.get('status') || null;
    if (status !== null && !PET_STATUSES.includes(status as PetStatus)) throw invalidParameter('status', `status must be one of ${PET_STATUSES.join(', ')} (got ${JSON.stringify(status)})`);
    const limit = integerParameter(url, 'limit', 1, MAX_LIMIT);
    return store.list({ tag: url.searchParams.get('tag'), status, ...(limit === undefined ? {} : { limit }) });
  };

  const routes: Route[] = [
    { pattern: /^\/$/, methods: { GET: (_q, s) => sendJson(s, 200, { name: 'Petstore sample API', endpoints: ENDPOINTS }) } },
    {
      pattern: /^\/pets$/,
      methods: {
        GET: (_q, s, url) => sendJson(s, 200, listPets(url)),
        POST: async (q, s) => {
          const pet = store.add(parsePetInput(await readJsonBody(q)));
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
          const input = parsePetInput(await readJsonBody(q));
          withPet(s, store.replace(Number(m[1]), input), m[1]!, (pet) => sendJson(s, 200, pet));
        },
        DELETE: (_q, s, _u, m) => {
          if (!store.delete(Number(m[1]))) throw new Problem('pet-not-found', 404, `No pet has id ${m[1]}.`);
          s.writeHead(204).end();
        },
      },
    },
    {
      pattern: /^\/pets\/(\d{1,9})\/photo$/,
      methods: { GET: (_q, s, _u, m) => withPet(s, store.get(Number(m[1])), m[1]!, (pet) => sendBytes(s, 200, 'image/png', petPhoto(pet.id), { 'Cache-Control': 'no-store' })) },
    },
    {
      // Server-sent events, as a streaming API sends them: the console shows each one as it comes.
      pattern: /^\/pets\/events$/,
      methods: {
        GET: async (q, s, url) => {
          const count = integerParameter(url, 'count', 1, MAX_EVENTS) ?? 10;
          const interval = integerParameter(url, 'interval', 0, MAX_EVENT_INTERVAL) ?? 500;
          s.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
          if (q.method === 'HEAD') return void s.end();
          // A client that goes (Cancel, another page) ends the stream instead of leaving a timer behind.
          const gone = new AbortController();
          s.once('close', () => gone.abort());
          const pets = store.list({});
          if (pets.length === 0) return void s.end(': no pets to report on\n\n');
          for (let id = 1; id <= count; id += 1) {
            if (id > 1) {
              try {
                await sleep(interval, undefined, { signal: gone.signal });
              } catch {
                return;
              }
            }
            const pet = pets[(id - 1) % pets.length]!;
            const status = PET_STATUSES[(id + pet.id) % PET_STATUSES.length]!;
            s.write(`id: ${id}\nevent: pet.status\ndata: ${JSON.stringify({ petId: pet.id, name: pet.name, status })}\n\n`);
          }
          s.end();
        },
      },
    },
    { pattern: /^\/pets\.xml$/, methods: { GET: (_q, s, url) => sendBytes(s, 200, 'application/xml; charset=utf-8', Buffer.from(petsAsXml(listPets(url)))) } },
    { pattern: /^\/inventory$/, methods: { GET: (_q, s) => sendBytes(s, 200, 'application/json; charset=utf-8', largeInventory()) } },
    {
      // Compressed for a client that accepts it, as a web server would: browsers always do; curl does with --compressed.
      pattern: /^\/catalog$/,
      methods: {
        GET: (q, s) => {
          const { json, gzip } = catalog();
          const compressed = acceptsGzip(q.headers['accept-encoding']);
          sendBytes(s, 200, 'application/json; charset=utf-8', compressed ? gzip : json, { Vary: 'Accept-Encoding', ...(compressed ? { 'Content-Encoding': 'gzip' } : {}) });
        },
      },
    },
    {
      // A file to save rather than to read: binary, and named by Content-Disposition.
      pattern: /^\/export$/,
      methods: {
        GET: (_q, s) => {
          const pets = store.list({});
          const archive = zipArchive([
            { name: 'pets.json', content: Buffer.from(JSON.stringify(pets, null, 2) + '\n') },
            { name: 'pets.xml', content: Buffer.from(petsAsXml(pets) + '\n') },
            { name: 'README.txt', content: Buffer.from(`Every pet of the Petstore sample API (${pets.length}), as JSON and as XML.\n`) },
          ]);
          sendBytes(s, 200, 'application/zip', archive, { 'Content-Disposition': 'attachment; filename="petstore-export.zip"', 'Cache-Control': 'no-store' });
        },
      },
    },
    { pattern: /^\/changelog$/, methods: { GET: (_q, s) => sendBytes(s, 200, 'text/plain; charset=utf-8', Buffer.from(CHANGELOG)) } },
    {
      // The API's old paths: moved for good, the query kept. Only to /pets…, so that the redirect cannot be aimed elsewhere.
      pattern: /^\/v1(\/pets(?:\/[^/]+)*)$/,
      methods: { GET: (_q, s, url, m) => void s.writeHead(301, { Location: `${m[1]}${url.search}`, 'Content-Length': 0 }).end() },
    },
    {
      pattern: /^\/account$/,
      methods: {
        GET: (q, s) => {
          const authorization = q.headers.authorization ?? '';
          if (!/^Bearer\s+\S+$/i.test(authorization)) {
            throw new Problem('unauthorized', 401, 'Send Authorization: Bearer <token>. The demo token is on the docs page.', { headers: { 'WWW-Authenticate': 'Bearer realm="petstore"' } });
          }
          if (authorization.replace(/^Bearer\s+/i, '') !== DEMO_TOKEN) {
            throw new Problem('unauthorized', 401, 'The token is not valid (expired or revoked). The demo token is on the docs page.', {
              headers: { 'WWW-Authenticate': 'Bearer realm="petstore", error="invalid_token"' },
            });
          }
          sendJson(s, 200, { id: 7, name: 'Demo Reader', email: 'reader@petstore.example', plan: 'free', adoptions: store.list({ status: 'adopted' }).length });
        },
      },
    },
    {
      pattern: /^\/slow$/,
      methods: {
        GET: async (_q, s, url) => {
          const delay = integerParameter(url, 'delay', 0, MAX_DELAY) ?? DEFAULT_DELAY;
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
          if (status < 400 || status > 599) throw invalidParameter('code', 'Ask for a status from 400 to 599, e.g. /status/404 or /status/503.');
          const headers: Record<string, string> = status === 503 || status === 429 ? { 'Retry-After': '30' } : {};
          throw new Problem('example-error', status, `An example ${status} answer, as the API would send it.`, { headers });
        },
      },
    },
  ];

  const docsUrl = options.docsUrl ?? (() => '');
  return (request, response) => {
    void handle(routes, request, response, docsUrl);
  };
}

async function handle(routes: Route[], request: IncomingMessage, response: ServerResponse, docsUrl: () => string): Promise<void> {
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
      if (!handler) throw new Problem('method-not-allowed', 405, `${request.method} is not supported on ${url.pathname}; use ${allow}.`, { headers: { Allow: allow } });
      return await handler(request, response, url, match);
    }
    throw new Problem('not-found', 404, `No endpoint at ${url.pathname}. GET / lists them.`);
  } catch (error) {
    if (response.headersSent) return void response.destroy();
    sendProblem(response, asProblem(error), docsUrl(), url.pathname + url.search);
  }
}

function asProblem(error: unknown): Problem {
  if (error instanceof Problem) return error;
  if (error instanceof PetValidationError) return new Problem('invalid-pet', 422, error.message, { errors: error.problems });
  if (error instanceof RequestBodyError) {
    return error.status === 413 ? new Problem('body-too-large', 413, error.message) : new Problem('invalid-json', 400, error.message);
  }
  return new Problem('internal-error', 500, 'The sample API failed unexpectedly.');
}

/** A pet is sent as JSON; another Content-Type (a form, text) is refused before the body is read. */
async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new Problem('unsupported-media-type', 415, `Send the pet as JSON, with Content-Type: application/json (got ${type ? JSON.stringify(type) : 'no Content-Type'}).`, {
      // RFC 9110: in a response, Accept names the content types a request to this resource may carry.
      headers: { Accept: 'application/json' },
    });
  }
  return readJson(request, MAX_BODY);
}

function invalidParameter(parameter: string, detail: string): Problem {
  return new Problem('invalid-parameter', 400, detail, { errors: [{ parameter, detail }] });
}

/** The whole-number query parameter `name`, from `min` to `max`; `undefined` when absent or empty. */
function integerParameter(url: URL, name: string, min: number, max: number): number | undefined {
  const text = url.searchParams.get(name);
  if (text === null || text === '') return undefined;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw invalidParameter(name, `${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(text)})`);
  return value;
}

function withPet(response: ServerResponse, pet: Pet | undefined, id: string, then: (pet: Pet) => void): void {
  if (!pet) throw new Problem('pet-not-found', 404, `No pet has id ${id}.`);
  then(pet);
}
