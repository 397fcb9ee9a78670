// The npm-import page: `import 'try-it-console'` defines the elements; Lit's templates bind the console's
// `config` property, its preset attributes and its events, as any framework would.
import type { TicBeforeSendEvent, TicRequestErrorEvent, TicResponseEvent } from 'try-it-console';
import 'try-it-console';
import type { ConsoleConfig } from 'try-it-console/core';
import { html, render } from 'lit';

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

const host = document.querySelector<HTMLElement>('#app')!;
const settings = host.dataset;
const config: ConsoleConfig = {
  corsProxy: settings.proxyUrl,
  defaultHeaders: { Accept: 'application/json' },
  environments: [{ name: 'Local demo', variables: { base_url: settings.apiOrigin ?? '', token: settings.token ?? '', pet_id: '2' } }],
  history: { enabled: true, storageKey: 'petstore-demo-npm' },
  snippets: { languages: ['curl', 'javascript', 'python'] },
};

let selected = operations[0]!;
const seen: string[] = [];

function logEvent(...parts: string[]): void {
  seen.unshift([new Date().toLocaleTimeString(), ...parts].join('  '));
  seen.length = Math.min(seen.length, 20);
  update();
}

// The page's chance to rewrite a request: here, a request id the API's logs could correlate.
function onBeforeSend(event: TicBeforeSendEvent): void {
  event.request.headers['X-Request-Id'] = crypto.randomUUID();
  logEvent(event.type, event.request.method, event.request.url, `(X-Request-Id added${event.request.viaProxy ? ', via the proxy' : ''})`);
}

function onResponse(event: TicResponseEvent): void {
  const { status, statusText, size, timing } = event.response;
  logEvent(event.type, `${status} ${statusText}`, `${size} bytes`, `${Math.round(timing.total)} ms`);
}

function onRequestError(event: TicRequestErrorEvent): void {
  logEvent(event.type, event.error.message);
}

function select(operation: Operation): void {
  selected = operation;
  update();
}

// The event log scrolls once it is long: focusable, so that the keyboard can scroll it too.
function update(): void {
  render(
    html`
      <div class="operation-picker" role="group" aria-label="Operations">
        ${operations.map(
          (operation) => html`<button type="button" aria-pressed=${operation === selected ? 'true' : 'false'} @click=${() => select(operation)}>
            <span class="method method-${operation.method.toLowerCase()}">${operation.method}</span> ${operation.summary}
          </button>`,
        )}
      </div>
      <try-it-console
        label=${selected.summary}
        heading-level="3"
        .config=${config}
        method=${selected.method}
        url=${`{{base_url}}${selected.path}`}
        .headers=${selected.headers ?? {}}
        body=${selected.body ?? ''}
        @tic-before-send=${onBeforeSend}
        @tic-response=${onResponse}
        @tic-request-error=${onRequestError}
      ></try-it-console>
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
