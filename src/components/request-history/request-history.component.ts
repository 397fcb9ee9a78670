import { LitElement, html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { guard } from 'lit/directives/guard.js';
import { repeat } from 'lit/directives/repeat.js';
import type { History } from '../../core/history.js';
import type { HistoryEntry } from '../../core/history-entry.js';
import { LiveAnnouncer } from '../../controllers/live-announcer.js';
import { SubscriptionController } from '../../controllers/subscription-controller.js';
import { TicHistoryDeleteEvent } from '../../events/history-delete.js';
import { TicHistorySelectEvent } from '../../events/history-select.js';
import { ariaLevel } from '../attribute-converters.js';
import { statusClassOf } from '../status-class.js';
import { panelStyles } from '../panel.styles.js';
import { themeStyles } from '../theme.styles.js';
import { unusableObjectProblem } from '../unusable-object.js';
import { formatEntryTime } from './entry-time.js';
import { maskEntryUrl, splitEntryUrl, valueFormsToMask } from './entry-url.js';
import { spokenMasks, withNamedMasks } from '../named-masks.js';
import { requestHistoryStyles } from './request-history.styles.js';

/** Once each, longest first: a value holding another is masked whole. */
const longestFirst = (values: string[]) => [...new Set(values)].sort((a, b) => b.length - a.length);
const sameValues = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((value, index) => value === b[index]);

// The persistence warning each history had said: a docs page with a console per operation shows one history's in
// every list, and a screen reader would read it once per console. Each list still shows it.
const warningsAnnounced = new WeakMap<History, string>();

/**
 * @tagname request-history
 * @summary Past requests, newest first: pick one to load it again, delete one, or clear all (after a confirmation).
 *
 * URLs are shown with their credentials masked, as `<env-picker>` masks them (a password, `api_key=…`), the
 * parameters the history's `redactQueryParameters` lists, the values given in `maskedValues`, and those in the
 * history's `redactedValues`.
 *
 * The list is one stop in the tab order: Up, Down, Page Up, Page Down, Home and End move between entries, Left and
 * Right between an entry and its delete button, Enter picks, Delete (or Backspace) deletes.
 *
 * @fires {TicHistorySelectEvent} tic-history-select - Cancelable. The user picked an entry; `<try-it-console>` loads it back unless a listener calls `preventDefault()`.
 * @fires {TicHistoryDeleteEvent} tic-history-delete - The user deleted an entry (`id`), or cleared all (`id` undefined).
 *
 * @csspart list - The list of entries.
 * @csspart clear-button - The Clear all button, and the button confirming it.
 *
 * @cssprop --tic-history-max-height - Height past which the list scrolls. Default 20rem.
 */
export class RequestHistory extends LitElement {
  static override styles = [themeStyles, panelStyles, requestHistoryStyles];

  readonly #history = new SubscriptionController<History>(this, 'clear');
  /** What the last delete or clear did, and a persistence warning, for screen readers. */
  readonly #announcer = new LiveAnnouncer(this);
  /** `history` as set, even when it cannot be shown. */
  #given: History | undefined;
  /** Why `history` cannot be shown; said in place of the list. */
  #problem: string | undefined;
  /** Histories whose stored entries have loaded: until then an empty list is not "no requests yet". */
  readonly #loaded = new WeakSet<History>();
  /** The persistence warning last announced. */
  #warned: string | undefined;
  /** Where focus was as an update began: the index of its row, -1 on another control; undefined outside the element. */
  #focusedRow: number | undefined;
  /** The column focus was in then: 0 the entries, 1 their ✕ buttons. */
  #focusedColumn = 0;
  /** The button focus was on then. */
  #focusedButton: HTMLElement | undefined;
  /** The one button of the list in the tab order (a roving tabindex). */
  #tabStop: HTMLElement | undefined;
  /**
   * The reader moved to `#tabStop` (an arrow, a click), or newer entries pushed it down under focus: Tab returns there.
   * Otherwise it follows the newest entry.
   */
  #tabStopChosen = false;
  #newDay: ReturnType<typeof setTimeout> | undefined;
  /** `maskedValues`, once each, longest first. */
  #maskedValues: readonly string[] = [];
  /** Those and the history's `redactedValues`, as `#maskedForms` was made of. */
  #masking: readonly string[] = [];
  /** The texts that show them in a URL (see valueFormsToMask). */
  #maskedForms: readonly string[] = [];

  /** Clear all was pressed, and waits for Clear or Cancel. */
  @state() private confirming = false;

  /**
   * The history to show, a `History`. Another value, or a framework's reactive proxy of one (Vue's `ref()`), is
   * explained in place of the list.
   */
  @property({ attribute: false })
  get history(): History | undefined {
    return this.#given;
  }
  set history(history: History | undefined) {
    this.#given = history;
    this.#problem = unusableObjectProblem<History>(history, 'history', 'History', ['list', 'subscribe', 'ready'], (shown) => shown.list());
    const shown = this.#problem ? undefined : (history ?? undefined);
    if (shown === this.#history.source) return;
    this.#history.source = shown;
    this.confirming = false;
    const loaded = () => {
      this.#loaded.add(shown!);
      this.requestUpdate();
    };
    shown?.ready().then(loaded, loaded);
  }

  /**
   * Values to show masked wherever they appear in a URL (a path's `/bot{{token}}/`, `?hash=…`), as written and
   * percent-encoded, such as the keys `<env-picker>` masks: an array of strings, or one string. Shorter than 4
   * characters, they are left as they are (they would mask words). `<try-it-console>` sets it to the values its
   * environment panel masks whole, in any of its environments.
   */
  @property({ attribute: false })
  get maskedValues(): readonly string[] {
    return this.#maskedValues;
  }
  set maskedValues(values: readonly string[] | string | null | undefined) {
    // One string alone is one value, not its characters (each too short to mask): the secret would show.
    const sorted = longestFirst([values ?? []].flat().map(String));
    // The same values as a new array (a console gives one on each render): kept, so that no row is rendered again.
    if (!sameValues(sorted, this.#maskedValues)) this.#maskedValues = sorted;
  }

  /**
   * `light` or `dark`; without it, the element follows the system setting. A `color-scheme` the page sets on the element
   * (`html.dark request-history { color-scheme: dark }`, a site's own dark mode) wins over both.
   */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** The level of the History heading, 1 to 6 (2 when left out or another value), to fit the page's outline. */
  @property({ attribute: 'heading-level' }) headingLevel: number | string | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#scheduleNewDay();
    document.addEventListener('visibilitychange', this.#onVisibilityChange);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#newDay);
    document.removeEventListener('visibilitychange', this.#onVisibilityChange);
  }

  // Back from a hidden tab or a sleeping computer, whose timers wait or run late: the day (and the time zone) the
  // times are written for may have changed meanwhile.
  readonly #onVisibilityChange = (): void => {
    if (document.visibilityState !== 'visible') return;
    clearTimeout(this.#newDay);
    this.#scheduleNewDay();
    this.requestUpdate();
  };

  protected override willUpdate(): void {
    const active = this.shadowRoot?.activeElement;
    const row = active?.closest('li');
    this.#focusedRow = !active ? undefined : row ? [...row.parentElement!.children].indexOf(row) : active.matches('.empty') ? 0 : -1;
    this.#focusedColumn = active?.matches('.delete') ? 1 : 0;
    this.#focusedButton = row ? (active as HTMLElement) : undefined;
    const history = this.#history.source;
    if (history?.warning !== this.#warned) {
      this.#warned = history?.warning;
      // A list that is not rendered (in a closed <details>, a hidden tab) says nothing aloud: the next that is says it.
      if (history && this.#warned && warningsAnnounced.get(history) !== this.#warned && (this.checkVisibility?.() ?? true)) {
        warningsAnnounced.set(history, this.#warned);
        this.#announcer.announce(this.#warned);
      }
    }
    if (!history?.size) this.confirming = false;
    // Also the values the history kept out of entries as they were sent: the environment may no longer hold one (a
    // token rotated since), and with keepCredentials the entries still do.
    const masking = longestFirst([...this.#maskedValues, ...(history?.redactedValues ?? [])]);
    if (!sameValues(masking, this.#masking)) this.#maskedForms = valueFormsToMask((this.#masking = masking));
  }

  protected override updated(): void {
    // What had focus is gone (its entry deleted, evicted by a newer one or cleared, here, by the page or in another
    // tab; Clear all asked or answered, or disabled by a clear elsewhere, as the browser then drops its focus): focus the
    // nearest entry, in the column it was in (after a ✕, the next ✕: Enter pressed again deletes, never loads an entry
    // over the request being edited), else the next control, rather than the page.
    const active = this.shadowRoot!.activeElement;
    // Moved, not gone (its entry added again, so the newest now): focus stays on it, as Enter there loads that entry.
    if (!active && this.#focusedButton?.isConnected) this.#focusedButton.focus();
    else if (this.#focusedRow !== undefined && (!active || active.matches(':disabled'))) {
      const rows = this.renderRoot.querySelectorAll('ol > li');
      const row = rows[Math.min(this.#focusedRow, rows.length - 1)];
      ((row?.children[this.#focusedColumn] as HTMLElement | undefined) ?? this.renderRoot.querySelector<HTMLElement>('.cancel, .clear:enabled, .empty'))?.focus();
    }
    // Tab enters on the newest entry, not on the one that was newest when the list was drawn, sunk below those sent
    // since; but on the entry the reader moved to, while it stays, and on one newer entries pushed down under focus.
    const newest = this.renderRoot.querySelector<HTMLElement>('button.entry');
    if (this.#tabStop !== newest && this.#tabStop === this.shadowRoot!.activeElement) this.#tabStopChosen = true;
    if (!this.#tabStop?.isConnected || !this.#tabStopChosen) this.#moveTabStop(newest, false);
  }

  /** Today's entries show the time alone: at midnight they become yesterday's, and show their day. */
  #scheduleNewDay(): void {
    const now = new Date();
    const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    this.#newDay = setTimeout(() => {
      this.requestUpdate();
      this.#scheduleNewDay();
    }, midnight.getTime() - now.getTime());
  }

  #entry(id: string): HistoryEntry | undefined {
    return this.#history.source?.list().find((entry) => entry.id === id);
  }

  #onSelect(id: string): void {
    const entry = this.#entry(id);
    if (entry) this.dispatchEvent(new TicHistorySelectEvent(entry));
  }

  #onDelete(id: string): void {
    const entry = this.#entry(id);
    if (!entry) return;
    this.#history.source!.delete(id);
    this.dispatchEvent(new TicHistoryDeleteEvent(id));
    this.#announcer.announce(`Deleted ${entry.method} ${spokenMasks(this.#shownUrl(entry), entry.url)} from history.`);
  }

  #askToClear(): void {
    this.confirming = true;
    // The safe answer first: Enter pressed twice by mistake cancels.
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('.cancel')?.focus());
  }

  #onClear(): void {
    this.confirming = false;
    this.#history.source?.clear();
    this.dispatchEvent(new TicHistoryDeleteEvent(undefined));
    this.#announcer.announce('History cleared.');
  }

  #onConfirmKeydown(event: KeyboardEvent): void {
    if (event.key !== 'Escape') return;
    // Ends here: a dialog around the list would close too.
    event.preventDefault();
    event.stopPropagation();
    this.confirming = false;
  }

  /**
   * Arrow keys, Page Up and Down, Home and End between the list's buttons (entries in a column, each with its delete
   * button).
   */
  #onListKeydown(event: KeyboardEvent): void {
    const button = event.target as HTMLElement;
    const row = button.parentElement!;
    const list = row.parentElement!;
    // Enter held down would load entry after entry, or on a ✕ delete them, as Delete held down did.
    if (event.key === 'Enter' && event.repeat) {
      event.preventDefault();
      return;
    }
    // Delete and Backspace delete with any modifier (Cmd + Backspace is the Mac's delete); no browser shortcut is lost.
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      // One entry per press: a key held down deleted entry after entry, focus moving on to each.
      if (!event.repeat) (row.lastElementChild as HTMLElement).click();
      return;
    }
    // Alt + Left is the browser's Back: other keys with Alt, Ctrl or Meta are the browser's.
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const column = button === row.firstElementChild ? 0 : 1;
    // Left and Right as drawn: right to left, the ✕ is on the left.
    const right = getComputedStyle(row).direction === 'rtl' ? 0 : 1;
    const rows = [...list.children];
    const at = (offset: number) => rows[Math.max(0, Math.min(rows.indexOf(row) + offset, rows.length - 1))];
    // Page Down as in a grid: to the last entry in sight, then on, so that it becomes the first in sight.
    const page = Math.max(1, Math.floor(Math.min(list.clientHeight, innerHeight) / row.offsetHeight) - 1);
    const [to, toColumn] =
      (
        {
          ArrowDown: [at(1), column],
          ArrowUp: [at(-1), column],
          PageDown: [at(page), column],
          PageUp: [at(-page), column],
          Home: [rows[0], column],
          End: [at(rows.length), column],
          ArrowLeft: [row, 1 - right],
          ArrowRight: [row, right],
        } as Record<string, [Element | null, number]>
      )[event.key] ?? [];
    if (toColumn === undefined) return;
    event.preventDefault();
    // Scrolled no further than needed (focus centres it): an entry out of sight below comes in at the bottom.
    (to?.children[toColumn] as HTMLElement | undefined)?.focus({ preventScroll: true });
    to?.scrollIntoView({ block: 'nearest' });
  }

  #moveTabStop(button: EventTarget | null, chosen: boolean): void {
    this.#tabStopChosen = chosen;
    if (this.#tabStop) this.#tabStop.tabIndex = -1;
    this.#tabStop = (button as HTMLElement | null) ?? undefined;
    if (this.#tabStop) this.#tabStop.tabIndex = 0;
  }

  #shownUrl(entry: HistoryEntry): string {
    return maskEntryUrl(entry.url, this.#history.source!.config.redactQueryParameters, this.#maskedForms);
  }

  #renderEntry(entry: HistoryEntry, now: Date) {
    const status = entry.status === 0 ? 'failed' : statusClassOf(entry.status);
    const statusText = entry.status === 0 ? 'failed' : String(entry.status);
    const time = formatEntryTime(entry.timestamp, now);
    const duration = Math.round(entry.duration);
    // Entries to one API share the origin, and a URL cut at the end showed only that: the path leads, the origin
    // starts the line below, the whole URL is in the tooltip. Non-breaking spaces keep "12 ms" and each "·" with what
    // precedes it; <bdi> reads each in its own direction ("ms 12" on a right-to-left page). The name is the content,
    // the URL whole: its origin is before the path at font size 0, inline (a visually hidden span out of the flow split
    // the name: "https://api.example /pets"). The ✕ names its entry.
    // The path (its styles) and origin read left to right on a right-to-left page too ("/pets/" drew as "//pets"). Its
    // credentials are masked as <env-picker> masks them, the parameters the site listed as secret and the values given
    // to mask: memory holds the request as sent, secrets included. Each mask is read as "hidden value", not its bullets.
    const url = this.#shownUrl(entry);
    const { origin, path } = splitEntryUrl(url);
    return html`<li>
      <button class="entry" tabindex="-1" aria-keyshortcuts="Delete" @click=${() => this.#onSelect(entry.id)}>
        <span class="method">${entry.method}</span>
        <span class="path" title=${url}><span class="origin-in-name">${withNamedMasks(origin, entry.url)}</span>${withNamedMasks(path, entry.url)}</span>
        <span class="status ${status}">${statusText}</span>
        <span class="meta"
          >${origin ? html`<span aria-hidden="true"><bdi class="origin" dir="ltr">${origin}</bdi>&nbsp;· </span>` : nothing}<bdi>${duration}&nbsp;ms</bdi>&nbsp;·
          <time datetime=${entry.timestamp.toISOString()}><bdi>${time}</bdi></time></span
        >
      </button>
      <button class="delete" tabindex="-1" aria-label="Delete ${entry.method} ${spokenMasks(url, entry.url)} (${statusText}, ${duration} ms, ${time}) from history" @click=${() => this.#onDelete(entry.id)}
        >✕</button
      >
    </li>`;
  }

  override render() {
    if (this.#problem) return html`<p class="warning" role="alert">${this.#problem}</p>`;
    const history = this.#history.source;
    // None yet (a framework sets it after the first render): nothing to say, and "turned off" would be wrong.
    if (!history) return nothing;
    const entries = history.list();
    const count = entries.length;
    const enabled = history.config.enabled;
    const loading = enabled && !this.#loaded.has(history);
    const now = new Date();
    // Rows show their time again on another day, and in another time zone (the computer moved).
    const today = `${now.toDateString()} ${now.getTimezoneOffset()}`;
    // Rows keyed by entry: one added on top gets a row of its own, and focus stays on the entry it was on. Each
    // row is rendered again only when what it shows changes (the history too: another masks other parameters; and the
    // values to mask): an add at 5,000 entries re-rendered every row.
    return html`
      <div class="heading-row">
        <h2 id="heading" aria-level=${ariaLevel(this.headingLevel)}>History</h2>
        ${this.confirming
          ? html`<div class="confirm" role="group" aria-labelledby="question" @keydown=${this.#onConfirmKeydown}>
              <span id="question">Clear all ${count === 1 ? '1 entry' : `${count} entries`}?</span>
              <button class="danger" part="clear-button" @click=${this.#onClear}>Clear</button>
              <button class="cancel" @click=${() => (this.confirming = false)}>Cancel</button>
            </div>`
          : // Turned off, there will never be anything to clear.
            count || enabled
            ? html`<button class="clear" part="clear-button" ?disabled=${count === 0} @click=${this.#askToClear}>Clear all</button>`
            : nothing}
      </div>
      ${history.warning ? html`<p class="warning" role="note">${history.warning}</p>` : nothing}
      ${count === 0
        ? html`<p class="empty muted" tabindex="-1">${loading ? 'Loading history…' : enabled ? 'No requests yet. Requests you send appear here.' : 'History is turned off.'}</p>`
        : html`<ol part="list" aria-labelledby="heading" aria-busy=${loading ? 'true' : nothing} @keydown=${this.#onListKeydown} @focusin=${(event: FocusEvent) => this.#moveTabStop(event.target, this.#tabStopChosen || event.target !== this.#tabStop)}>
            ${repeat(
              entries,
              (entry) => entry.id,
              (entry) => guard([history, this.#maskedForms, entry.method, entry.url, entry.status, entry.duration, entry.timestamp.getTime(), today], () => this.#renderEntry(entry, now)),
            )}
          </ol>`}
      <div class="visually-hidden" role="status" aria-live="polite">${this.#announcer.text}</div>
    `;
  }
}

