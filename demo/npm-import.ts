// The npm-import page: `import 'try-it-console'` defines the elements; Lit's templates bind the console's
// `config` property, its preset attributes and its events, as any framework would.
//
// The page's code sample is the lines between `// #region sample` and `// #endregion` (demo/docs-site/code-sample.ts
// takes them when the demo starts): what the page shows is what it runs.
// #region sample
import 'try-it-console'; // defines <try-it-console> and friends
import type { TicBeforeSendEvent, TicHistorySelectEvent, TicRequestErrorEvent, TicResponseEvent, TryItConsole } from 'try-it-console';
import type { ConsoleConfig } from 'try-it-console/core';
import { html, render } from 'lit';
import { createRef, ref } from 'lit/directives/ref.js';
// #endregion

interface Operation {
  method: string;
  path: string;
  summary: string;
  headers?: Record<string, string>;
  body?: string;
}

const operations: Operation[] = [
  { method: 'GET', path: '/pets', summary: 'List pets' },
  { method: 'POST', path: '/pets', summary: 'Add a pet', headers: { 'Content-Type': 'application/json' }, body: '{\n  "name": "Mochi",\n  "tag": "cat"\n}' },
  { method: 'GET', path: '/pets/{{pet_id}}', summary: 'Get a pet' },
  { method: 'GET', path: '/pets/{{pet_id}}/photo', summary: 'Pet photo', headers: { Accept: 'image/png' } },
  { method: 'GET', path: '/account', summary: 'My account', headers: { Authorization: 'Bearer {{token}}' } },
  { method: 'GET', path: '/status/404', summary: 'An error' },
];

// #region sample
// This run's addresses, from the page: <div id="app" data-api-origin="…" data-proxy-url="…" data-token="…">.
const host = document.querySelector<HTMLElement>('#app')!;
const settings = host.dataset;
const config: ConsoleConfig = {
  corsProxy: settings.proxyUrl,
  defaultHeaders: { Accept: 'application/json' },
  environments: [{ name: 'Local demo', variables: { base_url: settings.apiOrigin ?? '', token: settings.token ?? '', pet_id: '2' } }],
  history: { enabled: true, storageKey: 'petstore-demo-npm' },
  snippets: { languages: ['curl', 'javascript', 'python'] },
};

/** The operation the console's presets are bound to. */
let preset = operations[0]!;
/** The operation the console holds as picked; none once the reader loaded a request from history. */
let picked: Operation | undefined = preset;
// #endregion
const seen: string[] = [];

function logEvent(...parts: string[]): void {
  seen.unshift([new Date().toLocaleTimeString(), ...parts].join('  '));
  seen.length = Math.min(seen.length, 20);
  update();
}

// #region sample
// The page's chance to rewrite a request: here, a request id the API's logs could correlate.
function onBeforeSend(event: TicBeforeSendEvent): void {
  event.request.headers['X-Request-Id'] = crypto.randomUUID();
  logEvent(event.type, event.request.method, event.request.url, `(X-Request-Id added${event.request.viaProxy ? ', via the proxy' : ''})`);
}
// #endregion

function onResponse(event: TicResponseEvent): void {
  const { status, statusText, size, timing } = event.response;
  logEvent(event.type, `${status} ${statusText}`, `${size} bytes`, `${Math.round(timing.total)} ms`);
}

function onRequestError(event: TicRequestErrorEvent): void {
  logEvent(event.type, event.error.message);
}

function requestOf(operation: Operation) {
  return { method: operation.method, url: `{{base_url}}${operation.path}`, headers: operation.headers ?? {}, body: operation.body ?? '' };
}

// #region sample
const consoleElement = createRef<TryItConsole>();

function renderConsole(operation: Operation, label: string) {
  const request = requestOf(operation);
  return html`<try-it-console ${ref(consoleElement)} label=${label} heading-level="3" .config=${config}
    method=${request.method} url=${request.url} .headers=${request.headers} body=${request.body}
    @tic-before-send=${onBeforeSend} @tic-response=${onResponse} @tic-request-error=${onRequestError}
    @tic-history-select=${onHistorySelect}></try-it-console>`;
}

// Picked again after the reader edited the request or loaded one from history, the operation leaves the bindings as
// they were, which changes nothing (a re-render is no new request): load() puts the operation back.
function select(operation: Operation): void {
  picked = preset = operation;
  update();
  consoleElement.value!.load(requestOf(operation));
}

// A request from history is none of the operations: the picker and the console's name say so. The presets stay as
// they are; changed, they would load their operation over the request picked.
function onHistorySelect(event: TicHistorySelectEvent): void {
  if (event.defaultPrevented) return;
  picked = undefined;
  update();
}
// #endregion

// The event log scrolls once it is long: focusable, so that the keyboard can scroll it too.
function update(): void {
  render(
    html`
      <div class="operation-picker" role="group" aria-label="Operations">
        ${operations.map(
          (operation) => html`<button type="button" aria-pressed=${operation === picked ? 'true' : 'false'} @click=${() => select(operation)}>
            <span class="method method-${operation.method.toLowerCase()}">${operation.method}</span> ${operation.summary}
          </button>`,
        )}
      </div>
      ${renderConsole(preset, picked?.summary ?? 'Request from history')}
      <section class="event-log" aria-labelledby="event-log-heading">
        <h3 id="event-log-heading">Events seen by the page</h3>
        ${seen.length === 0
          ? html`<p>None yet: send a request.</p>`
          : html`<ol tabindex="0" aria-labelledby="event-log-heading">${seen.map((line) => html`<li>${line}</li>`)}</ol>`}
      </section>
    `,
    host,
  );
}

update();
