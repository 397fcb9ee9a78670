// The npm-import page: `import 'try-it-console'` defines the elements; Lit's templates bind the console's
// `config` property, its preset attributes and its events, as any framework would.
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
  { method: 'GET', path: '/pets/{{pet_id}}/photo', summary: 'Pet photo' },
  { method: 'GET', path: '/account', summary: 'My account', headers: { Authorization: 'Bearer {{token}}' } },
  { method: 'GET', path: '/status/404', summary: 'An error' },
];

/** What a `tic-*` event may carry; read defensively, only to list it. */
type ConsoleEvent = Event & { request?: { method?: string; url?: string }; response?: { status?: number } };

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

function onConsoleEvent(event: ConsoleEvent): void {
  const parts = [new Date().toLocaleTimeString(), event.type];
  if (event.request?.method) parts.push(`${event.request.method} ${event.request.url ?? ''}`);
  if (event.response?.status !== undefined) parts.push(`→ ${event.response.status}`);
  seen.unshift(parts.join('  '));
  seen.length = Math.min(seen.length, 20);
  update();
}

function select(operation: Operation): void {
  selected = operation;
  update();
}

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
        .config=${config}
        method=${selected.method}
        url=${`{{base_url}}${selected.path}`}
        .headers=${selected.headers ?? {}}
        body=${selected.body ?? ''}
        @tic-before-send=${onConsoleEvent}
        @tic-response=${onConsoleEvent}
      ></try-it-console>
      <section class="event-log" aria-label="Events">
        <h3>Events seen by the page</h3>
        ${seen.length === 0 ? html`<p>None yet: send a request.</p>` : html`<ol>${seen.map((line) => html`<li>${line}</li>`)}</ol>`}
      </section>
    `,
    host,
  );
}

update();
