import { LitElement, html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { History } from '../../core/history.js';
import type { HistoryEntry } from '../../core/history-entry.js';
import { LiveAnnouncer } from '../../controllers/live-announcer.js';
import { SubscriptionController } from '../../controllers/subscription-controller.js';
import { TicHistoryDeleteEvent } from '../../events/history-delete.js';
import { TicHistorySelectEvent } from '../../events/history-select.js';
import { panelStyles } from '../panel.styles.js';
import { themeStyles } from '../theme.styles.js';
import { splitEntryUrl } from './entry-url.js';
import { requestHistoryStyles } from './request-history.styles.js';

/**
 * @tagname request-history
 * @summary Past requests, newest first: pick one to load it again, delete one, or clear all.
 *
 * @fires {TicHistorySelectEvent} tic-history-select - The user picked an entry; `<try-it-console>` loads it back.
 * @fires {TicHistoryDeleteEvent} tic-history-delete - The user deleted an entry (`id`), or cleared all (`id` undefined).
 *
 * @csspart list - The list of entries.
 * @csspart clear-button - The Clear all button.
 *
 * @cssprop --tic-history-max-height - Height past which the list scrolls. Default 20rem.
 */
export class RequestHistory extends LitElement {
  static override styles = [themeStyles, panelStyles, requestHistoryStyles];

  readonly #history = new SubscriptionController<History>(this, 'clear');
  /** What the last delete or clear did, for screen readers. */
  readonly #announcer = new LiveAnnouncer(this);

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
    const index = this.history?.list().findIndex(({ id }) => id === entry.id) ?? -1;
    this.history?.delete(entry.id);
    this.dispatchEvent(new TicHistoryDeleteEvent(entry.id));
    this.#announcer.announce(`Deleted ${entry.method} ${entry.url} from history.`);
    // The entry's buttons are gone: focus its neighbour (the next, else the previous), or the empty list.
    void this.updateComplete.then(() => {
      const entries = this.renderRoot.querySelectorAll<HTMLElement>('button.entry');
      this.#focus(entries[Math.min(index, entries.length - 1)]);
    });
  }

  #onClear(): void {
    this.history?.clear();
    this.dispatchEvent(new TicHistoryDeleteEvent(undefined));
    this.#announcer.announce('History cleared.');
    // Clear all is disabled now, and a disabled button drops focus to the page.
    void this.updateComplete.then(() => this.#focus(undefined));
  }

  /** Focuses `entryButton`, or with none the empty list's text. */
  #focus(entryButton: HTMLElement | undefined): void {
    (entryButton ?? this.renderRoot.querySelector<HTMLElement>('.empty'))?.focus();
  }

  #renderEntry(entry: HistoryEntry) {
    const status = entry.status === 0 ? 'failed' : entry.status < 400 ? 'ok' : entry.status < 500 ? 'client-error' : 'server-error';
    const statusText = entry.status === 0 ? 'no response' : String(entry.status);
    const time = entry.timestamp.toLocaleTimeString();
    // Entries to one API share the origin, and a URL cut at the end showed only that: the path leads, the origin
    // starts the line below, the whole URL is in the tooltip. Screen readers get the URL whole, in its place.
    // Non-breaking spaces keep "12 ms" and each "·" with what precedes it.
    const { origin, path } = splitEntryUrl(entry.url);
    return html`<li>
      <button class="entry" title="Load ${entry.method} ${entry.url} into the console" @click=${() => this.#onSelect(entry)}>
        <span class="method">${entry.method}</span>
        <span class="url"><span class="visually-hidden">${origin}</span><span class="path">${path}</span></span>
        <span class="status ${status}">${statusText}</span>
        <span class="meta"
          >${origin ? html`<span aria-hidden="true"><span class="origin">${origin}</span>&nbsp;· </span>` : nothing}${Math.round(entry.duration)}&nbsp;ms&nbsp;·
          <time datetime=${entry.timestamp.toISOString()}>${time}</time></span
        >
      </button>
      <button class="delete" aria-label="Delete ${entry.method} ${entry.url} from history" @click=${() => this.#onDelete(entry)}>✕</button>
    </li>`;
  }

  override render() {
    const entries = this.history?.list() ?? [];
    const enabled = this.history?.config.enabled ?? false;
    // Rows keyed by entry: one added on top gets a row of its own, and focus stays on the entry it was on.
    // Unkeyed, the focused row was given the entry above, and Enter loaded that one.
    return html`
      <div class="heading-row">
        <h2 id="heading">History</h2>
        <button class="clear" part="clear-button" ?disabled=${entries.length === 0} @click=${this.#onClear}>Clear all</button>
      </div>
      ${this.history?.warning ? html`<p class="warning" role="note">${this.history.warning}</p>` : nothing}
      ${entries.length === 0
        ? html`<p class="empty muted" tabindex="-1">${enabled ? 'No requests yet. Requests you send appear here.' : 'History is turned off.'}</p>`
        : html`<ol part="list" aria-labelledby="heading">${repeat(entries, (entry) => entry.id, (entry) => this.#renderEntry(entry))}</ol>`}
      <div class="visually-hidden" role="status" aria-live="polite">${this.#announcer.text}</div>
    `;
  }
}
