import { LitElement, html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import type { History } from '../../core/history.js';
import type { HistoryEntry } from '../../core/history-entry.js';
import { SubscriptionController } from '../../controllers/subscription-controller.js';
import { TicHistoryDeleteEvent } from '../../events/history-delete.js';
import { TicHistorySelectEvent } from '../../events/history-select.js';
import { themeStyles } from '../theme.styles.js';
import { requestHistoryStyles } from './request-history.styles.js';

/**
 * @tagname request-history
 * @summary Past requests, newest first: pick one to load it again, delete one, or clear all.
 *
 * @fires tic-history-select - The user picked an entry; `<try-it-console>` loads it back.
 * @fires tic-history-delete - The user deleted an entry (`id`), or cleared all (`id` undefined).
 *
 * @csspart list - The list of entries.
 * @csspart clear-button - The Clear all button.
 *
 * @cssprop --tic-history-max-height - Height past which the list scrolls. Default 20rem.
 */
export class RequestHistory extends LitElement {
  static override styles = [themeStyles, requestHistoryStyles];

  readonly #history = new SubscriptionController<History>(this);

  /** The history to show. */
  @property({ attribute: false })
  get history(): History | undefined {
    return this.#history.source;
  }
  set history(history: History | undefined) {
    this.#history.source = history;
  }

  /** `light` or `dark`; without it, the element follows the system setting. */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  #onSelect(entry: HistoryEntry): void {
    this.dispatchEvent(new TicHistorySelectEvent(entry));
  }

  #onDelete(entry: HistoryEntry): void {
    this.history?.delete(entry.id);
    this.dispatchEvent(new TicHistoryDeleteEvent(entry.id));
    // The entry's buttons are gone: keep keyboard users in the list.
    void this.updateComplete.then(() => (this.renderRoot.querySelector<HTMLElement>('button.entry') ?? this.renderRoot.querySelector<HTMLElement>('button.clear'))?.focus());
  }

  #onClear(): void {
    this.history?.clear();
    this.dispatchEvent(new TicHistoryDeleteEvent(undefined));
  }

  #renderEntry(entry: HistoryEntry) {
    const status = entry.status === 0 ? 'failed' : entry.status < 400 ? 'ok' : entry.status < 500 ? 'client-error' : 'server-error';
    const statusText = entry.status === 0 ? 'no response' : String(entry.status);
    const time = entry.timestamp.toLocaleTimeString();
    return html`<li>
      <button class="entry" title="Load into the console" @click=${() => this.#onSelect(entry)}>
        <span class="method">${entry.method}</span>
        <span class="url">${entry.url}</span>
        <span class="status ${status}">${statusText}</span>
        <span class="meta">${Math.round(entry.duration)} ms · <time datetime=${entry.timestamp.toISOString()}>${time}</time></span>
      </button>
      <button class="delete" aria-label="Delete ${entry.method} ${entry.url} from history" @click=${() => this.#onDelete(entry)}>✕</button>
    </li>`;
  }

  override render() {
    const entries = this.history?.list() ?? [];
    const enabled = this.history?.config.enabled ?? false;
    return html`
      <div class="heading-row">
        <h2 id="heading">History</h2>
        <button class="clear" part="clear-button" ?disabled=${entries.length === 0} @click=${this.#onClear}>Clear all</button>
      </div>
      ${this.history?.warning ? html`<p class="warning" role="note">${this.history.warning}</p>` : nothing}
      ${entries.length === 0
        ? html`<p class="empty muted">${enabled ? 'No requests yet. Requests you send appear here.' : 'History is turned off.'}</p>`
        : html`<ol part="list" aria-labelledby="heading">${entries.map((entry) => this.#renderEntry(entry))}</ol>`}
    `;
  }
}
