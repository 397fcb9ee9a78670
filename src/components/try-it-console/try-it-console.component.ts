import { LitElement, html, noChange, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import { live } from 'lit/directives/live.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { ConsoleConfig } from '../../core/console-config.js';
import type { EnvironmentManager } from '../../core/environment-manager.js';
import { RequestError, describeValue } from '../../core/errors.js';
import { REDACTED, type History } from '../../core/history.js';
import { parseHistoryConfig } from '../../core/history-config.js';
import type { HistoryEntry } from '../../core/history-entry.js';
import { IdbHistoryStore } from '../../core/idb-history-store.js';
import { isHttpUrl } from '../../core/http-syntax.js';
import { parseTemplate, scanPlaceholders } from '../../core/placeholders.js';
import { speltAlike } from '../../core/unresolved-explanation.js';
import { PolicyViolationWatch } from '../../core/policy-violation-watch.js';
import { RequestEngine, type ConsoleResponse, type ResponseHead, type ResponseProgress } from '../../core/request-engine.js';
import { ResponseBodyError } from '../../core/response-body.js';
import type { ConsoleRequest, PreparedRequest } from '../../core/request-preparation.js';
import { INVALID_JSON_WARNING_START, UNTYPED_JSON_WARNING } from '../../core/json-body.js';
import { isCrossOrigin } from '../../core/proxy-route.js';
import type { ProxyRefusalCode } from '../../proxy/refusal.js';
import { SnippetGenerator } from '../../core/snippets/snippet-generator.js';
import type { SnippetLanguage } from '../../core/snippets/snippet-language.js';
import type { SnippetRequest } from '../../core/snippets/snippet-request.js';
import { LiveAnnouncer } from '../../controllers/live-announcer.js';
import { SendController, type SendState } from '../../controllers/send-controller.js';
import { SubscriptionController } from '../../controllers/subscription-controller.js';
import { TicBeforeSendEvent } from '../../events/before-send.js';
import type { TicHistorySelectEvent } from '../../events/history-select.js';
import { TicRequestErrorEvent } from '../../events/request-error.js';
import { TicResponseEvent } from '../../events/response.js';
import { ariaLevel, headersAttribute, headersProperty, textAttribute } from '../attribute-converters.js';
import { COPY_FEEDBACK_TIME, COPY_LABELS, copyText, type CopyState } from '../code-snippet/copy-text.js';
import { highlight } from '../code-snippet/highlighter.js';
import { methodOrDefault } from '../code-snippet/default-method.js';
import '../code-snippet/code-snippet.js';
import '../env-picker/env-picker.js';
import type { EnvPicker } from '../env-picker/env-picker.component.js';
import { readerSecrets } from '../env-picker/reader-secrets.js';
import '../request-history/request-history.js';
import { maskEntryUrl, splitEntryUrl, valueFormsToMask, withFormsMasked } from '../request-history/entry-url.js';
import { formatEntryTime } from '../request-history/entry-time.js';
import { maskedHeaderValue, maskedValue } from '../env-picker/secret-masking.js';
import { MASK, maskUrlCredentials } from '../url-credential-masking.js';
import { spokenMasks, withNamedMasks } from '../named-masks.js';
import { highlightStyles } from '../highlight.styles.js';
import { statusClassOf } from '../status-class.js';
import { themeStyles } from '../theme.styles.js';
import { chunkedText } from './chunked-text.js';
import { bodyKindOf, downloadName, formatBytes, formatBytesOf, headerText, presentBody, type BodyPresentation } from './body-presentation.js';
import { formatJsonBody } from './format-json-body.js';
import { credentialVariables } from './credential-variables.js';
import { blankedPlaceholders, joinQuery, nameText, parameterOf, partOf, splitQuery, valueText } from './query-parameters.js';
import { PageShared } from './page-shared.js';
import { tryItConsoleStyles } from './try-it-console.styles.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
/** At most this many Edit token buttons beside a 401 or 403: more would crowd out the status they answer. */
const CREDENTIAL_BUTTONS = 3;
/**
 * The responses of the console's last sends kept in memory for their history entries, shown again when one is picked
 * (Postman does so): at most this many, with a body of at most KEPT_BODY_LIMIT bytes each.
 */
const KEPT_RESPONSES = 10;
/** 1 MiB, which the note of a larger one names as formatBytes does: "1 MB". */
const KEPT_BODY_LIMIT = 1024 * 1024;
/** Text shown in the page is capped here; the whole body stays available for download. */
const DISPLAY_LIMIT = 256 * 1024;
/** The end of a body still arriving that is shown, in bytes: laid out again with every part that comes. */
const ARRIVING_TEXT_BYTES = 32 * 1024;
/** How near its end, in pixels, a body still arriving counts as read to the end, so it is kept there. */
const FOLLOW_SLACK = 8;

/** A response as the panel shows it. */
interface ShownResponse {
  response: ConsoleResponse;
  body: BodyPresentation;
  /** highlight.js HTML of a JSON body small enough to colour. */
  highlighted: string | undefined;
  /** Object URL of the whole body, for download (and the image preview). */
  download: string | undefined;
  /** The name the download is saved under. */
  fileName: string;
  /** The browser could not decode the image: `body` is then the body as text or binary data. */
  notAnImage: boolean;
  /** While an image preview loads: whether the page's Content-Security-Policy refuses blob: images. */
  imagePolicy: PolicyViolationWatch | undefined;
  /** The page's policy refused the preview (img-src without blob:). */
  imageBlocked: boolean;
}

interface HeaderRowState {
  key: number;
  name: string;
  value: string;
  enabled: boolean;
}

/** The request being edited, as the console holds it. */
interface EditedRequest {
  method: string;
  url: string;
  rows: HeaderRowState[];
  body: string;
  notices: ReadonlyArray<keyof typeof RESTORE_NOTICES>;
}

/**
 * The environment manager of the page's consoles given the same environments (by their JSON): a reader who picks
 * Sandbox in one sends to Sandbox from all of them.
 */
const pageEnvironments = new PageShared<EnvironmentManager>();
/**
 * The history of the page's consoles given the same history settings, one list in memory (with this page's entries as
 * sent, credentials unredacted) instead of one copy each, that each console's send adds to.
 */
const pageHistories = new PageShared<History>((history) => history.close());

/** Format JSON is an edit Ctrl+Z undoes up to this many lines of layout; past them, inserting it as one is too slow. */
const UNDOABLE_LINES = 300;
/** A body Format JSON is offered for: an object or an array, not a lone `{{placeholder}}`. */
const JSON_DOCUMENT_START = /^\s*(?:\[|\{(?!\{))/;

/**
 * @tagname try-it-console
 * @summary A "try it" console: edit a request, send it for real, see the response, switch environments,
 * reload past requests and copy the request as code.
 *
 * Configure it with the `config` property, or with JSON in a child `<script type="application/json">`
 * for pages without JavaScript of their own. Preset an operation with `method`, `url`, `headers`, `body`: when any
 * of the four changes value, all four are loaded as the request, replacing the user's edits (offered back by a
 * Restore your edits button); the same values set again (a framework's re-render) change nothing.
 *
 * @fires {TicBeforeSendEvent} tic-before-send - Cancelable; the page may rewrite `event.request` or stop the send.
 * @fires {TicResponseEvent} tic-response - A sent request got a response (any status).
 * @fires {TicRequestErrorEvent} tic-request-error - A sent request failed; `event.error.kind` says how.
 * @fires {TicHistorySelectEvent} tic-history-select - From its history, cancelable: the entry is loaded, replacing the request being edited (unsent edits are offered back by a Restore your edits button until the next edit or send), and the response panel shows what the entry's send got when it was one of this console's last 10 (kept in memory), until the next edit or send; unless a listener calls `preventDefault()`.
 * @fires {TicHistoryDeleteEvent} tic-history-delete - From its history: the user deleted an entry (`id`), or all of them.
 * @fires {TicEnvironmentChangeEvent} tic-environment-change - From its environment picker: the user selected another environment.
 * @fires {TicVariableChangeEvent} tic-variable-change - From its environment picker: the user set a variable's value.
 * @fires {TicLanguageChangeEvent} tic-language-change - From its snippet: the user switched to another language tab.
 * @fires {TicCopyEvent} tic-copy - From its snippet: the user copied it.
 *
 * @slot - A `<script type="application/json">` holding the configuration (read once, when it has arrived).
 *
 * @csspart request - The request editor.
 * @csspart method - The method select.
 * @csspart url - The URL field.
 * @csspart resolved-url - Under the URL field, the URL the request goes to once its variables are filled in.
 * @csspart parameters - The query parameter rows, read from the URL and written back to it.
 * @csspart headers - The header rows.
 * @csspart default-headers - The list of the configuration's default headers, sent with every request.
 * @csspart body - The body editor.
 * @csspart send-button - The Send button.
 * @csspart cancel-button - The Cancel button.
 * @csspart response - The response panel.
 * @csspart status - The response status line.
 * @csspart copy-body-button - The response body's Copy button (text and JSON bodies).
 * @csspart redirected - The line naming the URL a redirected response came from.
 * @csspart response-body - The response body.
 * @csspart error - The explanation of a failed request.
 * @csspart snippet - The Code section: its heading and the snippet, e.g. to hide it where the page shows code of its own.
 * @csspart tabs - The snippet's language tabs (forwarded from `<code-snippet>`).
 * @csspart copy-button - The snippet's Copy button (forwarded from `<code-snippet>`).
 * @csspart code - The panel holding the snippet (forwarded from `<code-snippet>`).
 * @csspart select - The environment select (forwarded from `<env-picker>`).
 * @csspart variables - The table of the active environment's variables (forwarded from `<env-picker>`).
 * @csspart missing - The notice of variables the environment lacks or cannot resolve (forwarded from `<env-picker>`).
 * @csspart list - The list of past requests (forwarded from `<request-history>`).
 * @csspart clear-button - The history's Clear all button (forwarded from `<request-history>`).
 * @csspart side - The side panel holding the environment picker and the history: a page of many consoles may hide it.
 *
 * @cssprop --tic-response-max-height - Height past which the response body, and the response headers, scroll. Default min(28rem, 70vh): at 200% zoom on a laptop, 28rem is taller than the window.
 */
export class TryItConsole extends LitElement {
  static override styles = [themeStyles, highlightStyles, tryItConsoleStyles];

  readonly #send = new SendController(this);
  readonly #environments = new SubscriptionController<EnvironmentManager>(this, 'resolve');
  /** Says what picking a history entry loaded (focus stays on the entry, and nothing else would tell), and what copying a body did. */
  readonly #announcer = new LiveAnnouncer(this);
  #engine: RequestEngine | undefined;
  #generator: SnippetGenerator | undefined;
  #nextRowKey = 0;
  /** The method last loaded (a preset, a history entry): offered, as the preset's is, once another is picked. */
  #loadedMethod = 'GET';
  /** The configuration the engine was built from, as JSON: frameworks often pass an equal new object each render. */
  #configuredFrom: string | undefined;
  /**
   * The environment switched to in the engine last stopped (rebuilt for another configuration, or the console
   * removed): the next engine starts on it when it has it, so the next send goes where the user chose, unless its
   * environments are held by other consoles of the page, whose current choice wins. Never switched, nothing was
   * chosen: the next configuration's own first applies.
   */
  #keptEnvironment: string | undefined;
  /**
   * The environments of the engine last stopped, by their key in `pageEnvironments`: a console added back, or given
   * those environments again, takes them up again when no other console on the page holds them, with the values the
   * reader set in them (their API key).
   */
  #keptEnvironments: { key: string; manager: EnvironmentManager } | undefined;
  /** The running engine's key in `pageEnvironments`. */
  #environmentsKey: string | undefined;
  /** Lets go of what the running engine shares with the page's other consoles. */
  #releaseShared: (() => void) | undefined;
  /** Whether the running engine's environment was switched (by the picker or the page), even back to the first. */
  #environmentChosen = false;
  /**
   * Ends the listening that sets `#environmentChosen`, and that lets go of kept responses. The page can hold the
   * engine's manager (a picker of its own): a listener left on it would keep the console, removed or given another
   * configuration, from being collected.
   */
  #unwatchEngine: (() => void) | undefined;
  /** The request last loaded or sent, as `#editedRequest()` keys it: a request that differs holds unsent edits. */
  #keptKey: string | undefined;
  /** The presets last loaded, as JSON: equal values set again (a framework's re-render) keep the user's edits. */
  #presetsFrom: string | undefined;
  #lastSnippetRequest: SnippetRequest | undefined;
  #unresolved: Unresolved = { missing: [], cyclic: [] };
  /** Watches the children while the configuration script has not arrived. */
  #configScriptWatch: MutationObserver | undefined;
  /**
   * The shown response, prepared once: pretty-printing and highlighting a large JSON body take tens of
   * milliseconds, too long to repeat on every keystroke in the editor, and the body's object URL is revoked
   * with the next response.
   */
  #shown: ShownResponse | undefined;
  /** A history entry picked, to load unless a listener of the event prevented it. */
  #picked: TicHistorySelectEvent | undefined;
  /**
   * How the console's last sends ended, by their history entry's id, oldest first (see KEPT_RESPONSES); for a body
   * too large to keep, its size. Memory only: let go of with the entry, or the engine.
   */
  readonly #kept = new Map<string, SendState | string>();
  /** The entry picked whose kept send shows, while the panel shows `state`: until the next edit, send or load. */
  #earlier: { id: string; at: Date; state: SendState; tooLarge?: string } | undefined;
  /** The text of a body shown (a presentation, or what a failed one brought) in blocks: see chunkedText(). */
  readonly #textBlocks = new WeakMap<object, ReturnType<typeof chunkedText>>();
  /** Whether focus was in the response panel as an update began. */
  #hadFocusInResponse = false;
  /** Whether the body still arriving was scrolled to its end (or not shown yet) as an update began. */
  #followArriving = true;
  /**
   * Where the reader was in the body still arriving as an update began: the complete (or cancelled) body that replaces
   * it is scrolled there, not back to its top.
   */
  #arrivingScroll: { element: Element; top: number; fromEnd: number; cut: boolean } | undefined;
  /**
   * Sends that failed once their response had started, by their error: the head and the request. Cancelled (see
   * #stopped), what came (status, headers, the body so far) is shown as a response the reader stopped, not as a failure;
   * any body so far is named after the request for download.
   */
  readonly #started = new WeakMap<RequestError, { head: ResponseHead; request: PreparedRequest }>();
  /** The download of the body so far of a send that stopped part-way (see #partialDownload), revoked with it. */
  #partial: { error: RequestError; url: string; fileName: string } | undefined;
  /** Whether focus was on the body still arriving as an update began. */
  #hadFocusOnArriving = false;
  /** Whether the reader left the response headers open: the next response shows them open too. */
  #headersOpen = false;
  /** What copying a body did, said on its Copy button for a moment, and only beside that body (a response, or a failure's part). */
  #bodyCopied: { of: object; state: CopyState } | undefined;
  #bodyCopyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The text last shown of a body still arriving (`cut`: its end only), and the progress it was shown for. */
  #arriving: { progress: ResponseProgress; text: string | undefined; cut: boolean } | undefined;
  /** The parameter field an input method is composing in (`index:isName`), whose text renders leave alone. */
  #composing: string | undefined;
  /** While no response has come: the send waited for, when the wait began, and the timer showing its seconds. */
  #waiting: { state: SendState; since: number; timer: ReturnType<typeof setInterval> } | undefined;

  @state() private configProblem: string | undefined;
  /** Why the `method`, `url`, `headers` or `body` set by the page cannot be loaded; shown like a configuration problem. */
  @state() private presetProblem: string | undefined;
  // The request being edited, apart from the presets: a framework sets a preset again only when its own value changes.
  @state() private currentMethod = 'GET';
  @state() private currentUrl = '';
  @state() private headerRows: HeaderRowState[] = [];
  @state() private currentBody = '';
  /** What a loaded request lacks that history did not keep: each says what to fill in before sending. */
  @state() private notices: ReadonlyArray<keyof typeof RESTORE_NOTICES> = [];
  /** Unsent edits a load (a history entry, a preset, `load()`) replaced, offered back until the next edit or send. */
  @state() private draft: EditedRequest | undefined;
  /** What Format JSON did not do (the body is not JSON, or its layout too long to undo), shown while the body is the one it was for. */
  @state() private formatNote: { body: string; text: string } | undefined;

  /**
   * The configuration (see `ConsoleConfig`); checked when set, and a problem is shown in place of the console. Other
   * content builds a new engine: the environment switched to stays if the new configuration has it, the history stays
   * if its settings are the same, and a send in flight is cancelled.
   */
  @property({ attribute: false }) config: ConsoleConfig | undefined;

  /** HTTP method of the operation to preset; empty (`method=""`, as a framework may render none) is GET. */
  @property({ converter: textAttribute('GET') }) method = 'GET';

  /** URL of the operation to preset; may hold `{{variables}}`, and may be relative to `base_url`. */
  @property({ converter: textAttribute('') }) url = '';

  /**
   * Request headers of the operation to preset; as an attribute, a JSON object. Frameworks that set every binding
   * as a property (React, Vue, Svelte) pass the attribute's JSON text here: read as the attribute is.
   */
  @property({ converter: headersAttribute }) headers: Record<string, string> = {};

  /**
   * Not read: the configuration is the `config` property or a child JSON script. A framework that renders the element
   * before it is defined sets its configuration object as this attribute ("[object Object]"), which is said in place
   * of the console rather than running on defaults.
   */
  @property({ attribute: 'config' }) private configAttribute: string | null | undefined;

  /** Request body of the operation to preset. */
  @property({ converter: textAttribute('') }) body = '';

  /**
   * `light` or `dark`; without it, the console follows the system setting. A `color-scheme` the page sets on the
   * console (`html.dark try-it-console { color-scheme: dark }`, a site's own dark mode) wins over both, and reaches the
   * elements inside it.
   */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /**
   * A name for the console, such as its operation's (`List pets`). The console is then one landmark of that name, its
   * request, response and code groups within it: on a page with a console per operation, screen reader
   * users tell the consoles apart and go from one to the next, instead of meeting the same four landmarks in each.
   */
  @property({ converter: textAttribute('') }) label = '';

  /** The level of the console's headings (Request, Response, Code, Environment, History), 1 to 6 (2 when left out or another value), to fit the page's outline; Query parameters, Headers and Body are one level under (6 at most). */
  @property({ attribute: 'heading-level' }) headingLevel: number | string | undefined;

  #snippetLanguage: SnippetLanguage | undefined;
  /**
   * The language of the console's snippet (`snippet-language`), as `<code-snippet>`'s `language`: for a docs page's own
   * language switch. Read back, the language the snippet shows.
   */
  @property({ attribute: 'snippet-language' })
  get snippetLanguage(): SnippetLanguage | undefined {
    return this.renderRoot?.querySelector('code-snippet')?.language ?? this.#snippetLanguage;
  }
  set snippetLanguage(language: SnippetLanguage | undefined) {
    this.#snippetLanguage = language;
    // Set on the snippet itself too: the same language set again, after the reader picked another, is a change there.
    const snippet = this.renderRoot?.querySelector('code-snippet');
    if (snippet) snippet.language = language;
  }

  /** The engine behind the console, once configured: its `environments` and `history` are live. */
  get engine(): RequestEngine | undefined {
    return this.#engine;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.config === undefined) this.#configFromScript();
    // Removed, then added back: the history closed on disconnect is opened again. Also when it was never configured,
    // its first update having come while it was out of the document (updates there do not configure).
    else if (this.hasUpdated && !this.#engine) this.#configure();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    // Moved (removed and added back at once): keep the engine, with its active environment and history.
    queueMicrotask(() => {
      if (this.isConnected) return;
      clearTimeout(this.#bodyCopyTimer);
      this.#bodyCopied = undefined;
      this.#stopWaitingClock();
      this.#forgetShown();
      this.#stopEngine()?.();
      this.#keepListed();
    });
  }

  protected override willUpdate(changed: PropertyValues): void {
    // Only in the response: what goes elsewhere (a header row the page's preset replaced while it was typed in) must
    // not hand focus to Send, where the next Space or Enter would send.
    const focused = this.shadowRoot?.activeElement;
    this.#hadFocusInResponse = !!focused && !!this.renderRoot.querySelector('[part="response"]')?.contains(focused);
    const arriving = this.renderRoot.querySelector?.('.arriving');
    this.#followArriving = !arriving || arriving.scrollHeight - arriving.scrollTop - arriving.clientHeight < FOLLOW_SLACK;
    this.#arrivingScroll = arriving ? { element: arriving, top: arriving.scrollTop, fromEnd: arriving.scrollHeight - arriving.scrollTop, cut: !!this.#arriving?.cut } : undefined;
    this.#hadFocusOnArriving = !!arriving && arriving === focused;
    const picked = this.#picked;
    this.#picked = undefined;
    if (picked && !picked.defaultPrevented) {
      const { entry } = picked;
      this.load(entry);
      const kept = this.#kept.get(entry.id);
      if (typeof kept === 'object') this.#send.show(kept);
      if (kept !== undefined) this.#earlier = { id: entry.id, at: entry.timestamp, state: this.#send.state, tooLarge: typeof kept === 'string' ? kept : undefined };
      const notices = this.notices.map((notice) => RESTORE_NOTICES[notice]);
      // Read out, so masked as the history list shows it: a password, an api_key or a listed parameter in the query, a
      // masked value (kept in the entry with keepCredentials) stay unsaid.
      const history = this.#engine?.history;
      const shown = maskEntryUrl(splitEntryUrl(entry.url).path, history?.config.redactQueryParameters ?? [], valueFormsToMask([...this.#maskedValues(), ...(history?.redactedValues ?? [])]));
      // With the note of an earlier send shown, as seen above it.
      this.#announcer.announce([`Loaded ${entry.method} ${spokenMasks(shown, entry.url)} from history.`, this.#earlierNote(), ...notices, this.draft && 'Restore your edits puts back the request you were editing.'].filter(Boolean).join(' '));
    }
    // Lit updates a removed element too: configured then, it would open a history nothing closes unless it is added
    // back. connectedCallback configures it when it is.
    if (changed.has('config') && this.isConnected) this.#configure();
    if (['method', 'url', 'headers', 'body'].some((name) => changed.has(name))) {
      const presets = this.#presets();
      // Checked on every change, before the comparison: a Headers or a Map reads as `{}` in JSON, like no headers.
      this.presetProblem = presetProblem(presets);
      if (this.presetProblem === undefined && this.#presetsKey() !== this.#presetsFrom) this.load(presets as typeof presets & { headers: Record<string, string> });
    }
    // Gone at the next edit (a send or a load drops it too); so is an earlier send shown, which was not this request's.
    if (this.#editedRequest().key !== this.#keptKey) {
      this.draft = undefined;
      if (this.#shownEarlier()) this.#send.reset();
    }
    // Not held once another state shows: what it holds is let go of with the entry.
    if (!this.#shownEarlier()) this.#earlier = undefined;
    this.#forgetShown(this.#shownBodyOf());
    if (this.#waiting?.state !== this.#send.state) this.#stopWaitingClock();
    // What a stream brought is let go of with it (up to the display limit, held by its last progress).
    if (this.#send.state.status !== 'pending') this.#arriving = undefined;
    if (this.notices.includes('credentials') && (changed.has('currentUrl') || changed.has('headerRows') || changed.has('currentBody')) && !this.#holdsRedacted()) {
      this.notices = this.notices.filter((notice) => notice !== 'credentials');
    }
  }

  // What had focus went with the response it was in (Ctrl+Enter in the body, on Download): Send, now Cancel, takes
  // it rather than the page, as the control of the send that replaced the response. A body read as it arrived gives
  // focus to the body it became (complete, or as far as it came), where the reader was: on Send, the next Space, which
  // scrolled the body, would send again.
  protected override updated(): void {
    if (this.#hadFocusInResponse && !this.shadowRoot!.activeElement) {
      const body = this.#hadFocusOnArriving && this.renderRoot.querySelector<HTMLElement>('[part="response-body"]');
      if (body) body.focus({ preventScroll: true });
      else this.renderRoot.querySelector<HTMLElement>('#send')?.focus();
    }
    // A stream is read at its end: it stays in view as it grows, unless the reader scrolled up to read. The body of a
    // stream (events, lines of JSON) that replaces it, complete or cancelled, opens where the reader was: at the end,
    // or at the same text (counted from the end when only the end was shown). Any other body opens at its top: a JSON
    // document is laid out anew, and one that merely came slowly is read from its start.
    const scroll = this.#arrivingScroll;
    const body = this.renderRoot.querySelector('[part="response-body"]');
    if (!body || !(scroll || body.matches('.arriving'))) return;
    if (!body.matches('.arriving') && !STREAM_TYPE.test(this.#shownContentType())) return;
    if (this.#followArriving) body.scrollTop = body.scrollHeight;
    else if (scroll && body !== scroll.element) body.scrollTop = scroll.cut ? body.scrollHeight - scroll.fromEnd : scroll.top;
  }

  /**
   * Configures from the child JSON script. The element can be upgraded before the parser reaches its children
   * (the module loaded first, the page arrives slowly), or a script may be appended later: so while the document
   * is parsed it waits, and once it is, runs with defaults until a script arrives.
   */
  #configFromScript(): void {
    if (!this.isConnected) return;
    const script = this.querySelector(':scope > script[type="application/json"]');
    const parsing = document.readyState === 'loading';
    if (script?.textContent?.trim() && !parsing) {
      this.#configScriptWatch?.disconnect();
      this.#configScriptWatch = undefined;
      try {
        this.config = JSON.parse(script.textContent) as ConsoleConfig;
      } catch (error) {
        this.configProblem = `The console's configuration script is not valid JSON: ${(error as Error).message}`;
      }
      return;
    }
    if (!this.#configScriptWatch) {
      this.#configScriptWatch = new MutationObserver(() => this.#configFromScript());
      this.#configScriptWatch.observe(this, { childList: true, subtree: true, characterData: true });
      // Until the document is parsed, a script's text may be only partly there.
      if (parsing) document.addEventListener('DOMContentLoaded', () => this.#configFromScript(), { once: true });
    }
    // A config attribute is a configuration that did not arrive: named in place of the console, not run on defaults.
    if (!parsing && !this.hasAttribute('config')) this.config ??= {};
  }

  /** Builds the engine from `config`, unless the running one was built from equal content. */
  #configure(): void {
    let configuredFrom: string | undefined;
    let problem: string | undefined;
    try {
      configuredFrom = JSON.stringify(this.config ?? {});
    } catch (error) {
      // Circular, or holding a BigInt: refused like any bad configuration, and the engine of the last one stops.
      problem = `The configuration must be plain JSON data: ${(error as Error).message}`;
    }
    if (this.#engine && configuredFrom === this.#configuredFrom) return;
    this.configProblem = problem;
    // What a send in flight brings belongs to the configuration it was sent with: cancelled, as load() does.
    if (this.#engine && this.#send.state.status === 'pending') this.#send.reset();
    // Let go of once the new engine holds what it shares with the old one: the history, the environments.
    const releasePrevious = this.#stopEngine();
    this.#configuredFrom = configuredFrom;
    try {
      if (problem) return;
      const environmentsKey = JSON.stringify(this.config?.environments ?? []);
      const historyKey = historyKeyOf(this.config ?? {});
      const kept = this.#keptEnvironments?.key === environmentsKey ? this.#keptEnvironments.manager : undefined;
      this.#keptEnvironments = undefined;
      const sharedEnvironments = pageEnvironments.get(environmentsKey) ?? kept;
      const engine = new RequestEngine({
        config: this.config ?? {},
        environments: sharedEnvironments,
        history: historyKey === undefined ? undefined : pageHistories.get(historyKey),
        // Without IndexedDB the store fails to open, and the history says it keeps entries for this page only. A console
        // turned off touches no storage either.
        historyStore: (history) => (history.enabled && this.config?.enabled !== false ? new IdbHistoryStore(history.storageKey) : undefined),
        displayLimit: DISPLAY_LIMIT,
      });
      pageEnvironments.hold(environmentsKey, engine.environments);
      // Checked by the engine, the settings have a key.
      pageHistories.hold(historyKey!, engine.history);
      this.#releaseShared = () => {
        pageEnvironments.release(environmentsKey, engine.environments);
        pageHistories.release(historyKey!, engine.history);
      };
      this.#engine = engine;
      this.#environmentsKey = environmentsKey;
      const chosen = this.#keptEnvironment;
      this.#keptEnvironment = undefined;
      this.#environmentChosen = chosen !== undefined && engine.environments.list().some((environment) => environment.name === chosen);
      // A manager already known holds the page's latest choice: this console's own (kept, or reconfigured with the same
      // environments), or one made since in another console. Only a new one starts on the choice kept.
      if (this.#environmentChosen && !sharedEnvironments) engine.environments.setActive(chosen!);
      let activeName = engine.environments.active()?.name;
      const unwatchEnvironment = engine.environments.subscribe(() => {
        const name = engine.environments.active()?.name;
        if (this.#engine === engine && name !== activeName) this.#environmentChosen = true;
        activeName = name;
      });
      const unwatchHistory = engine.history.subscribe(() => this.#keepListed());
      this.#unwatchEngine = () => (unwatchEnvironment(), unwatchHistory());
      this.#generator = new SnippetGenerator(engine.config.snippets);
      this.#environments.source = engine.environments;
      if (engine.config.enabled) void engine.history.ready();
    } catch (error) {
      this.configProblem = (error as Error).message;
    } finally {
      releasePrevious?.();
      // Another history (other settings) has none of the entries kept for.
      this.#keepListed();
    }
  }

  /**
   * Drops the engine, remembering the environment switched to for the next one, and returns what lets go of what it
   * shares with the page's other consoles (the last holder closes the history), for the caller to call.
   */
  #stopEngine(): (() => void) | undefined {
    if (!this.#engine) return undefined;
    const { environments } = this.#engine;
    this.#keptEnvironment = this.#environmentChosen ? environments.active()?.name : undefined;
    this.#keptEnvironments = { key: this.#environmentsKey!, manager: environments };
    this.#unwatchEngine?.();
    this.#unwatchEngine = undefined;
    this.#engine = undefined;
    const release = this.#releaseShared;
    this.#releaseShared = undefined;
    return release;
  }

  /** The presets as the page set them, read as loaded: defaults for those unset, headers given as JSON text parsed. */
  #presets(): { method: string; url: string; headers: unknown; body: string } {
    return { method: methodOrDefault(this.method), url: this.url ?? '', headers: headersProperty(this.headers ?? {}), body: this.body ?? '' };
  }

  /** Equal for presets that load the same request, however they were spelled. */
  #presetsKey(): string {
    return JSON.stringify(this.#presets());
  }

  #row(name = '', value = '', enabled = true): HeaderRowState {
    this.#nextRowKey += 1;
    return { key: this.#nextRowKey, name, value, enabled };
  }

  /**
   * The request as edited, placeholders unresolved. GET and HEAD hide the body editor, so they send no body; the
   * text stays for when the method changes back.
   */
  #request(): ConsoleRequest {
    const headers = this.headerRows.map(({ name, value, enabled }) => ({ name, value, enabled }));
    return { method: this.currentMethod, url: this.currentUrl, headers, body: this.#bodyAllowed() ? this.currentBody : '' };
  }

  #bodyAllowed(): boolean {
    return !['GET', 'HEAD'].includes(this.currentMethod.trim().toUpperCase());
  }

  // --- Handlers -----------------------------------------------------------------------------------

  #onMethodChange(event: Event): void {
    this.currentMethod = (event.target as HTMLSelectElement).value;
  }

  #onUrlInput(event: Event): void {
    this.currentUrl = (event.target as HTMLInputElement).value;
  }

  #onBodyInput(event: Event): void {
    this.currentBody = (event.target as HTMLTextAreaElement).value;
  }

  /** Lays the body out as JSON, as an edit the reader can undo (Ctrl+Z) unless long, or says why it is not JSON. */
  #onFormatBody(): void {
    const formatted = formatJsonBody(this.currentBody);
    if ('problem' in formatted) {
      this.formatNote = { body: this.currentBody, text: `Not formatted: the body is not valid JSON (${formatted.problem}).` };
      this.#announcer.announce(this.formatNote.text);
      return;
    }
    const field = this.renderRoot.querySelector<HTMLTextAreaElement>('#body')!;
    field.focus();
    field.select();
    // insertText fires the input event that takes the text in. It costs Chromium time that grows with the square of
    // the lines (2,400 lines: 4 s), so a long layout, or one where it does nothing, is set as the value: no undo.
    const long = formatted.text.split('\n', UNDOABLE_LINES + 1).length > UNDOABLE_LINES;
    const undoable = !long && document.execCommand('insertText', false, formatted.text);
    if (!undoable) field.value = formatted.text;
    this.currentBody = field.value;
    this.formatNote = undoable ? undefined : { body: field.value, text: `Formatted as JSON; ${long ? 'too long a layout' : 'this browser could not make it an edit'} for Ctrl+Z to undo.` };
    this.#announcer.announce(this.formatNote?.text ?? 'Formatted the body as JSON.');
  }

  /**
   * A parameter row's name or value edited: its part of the URL's query written again, the rest of the URL as it was.
   * What the part encodes (`&` → %26) is put in the field now, the caret after what was typed: set on render, it
   * went to the end, and the next key typed there.
   */
  #onParameterInput(index: number, event: Event, [name, value]: [string, string | undefined]): void {
    const field = event.target as HTMLInputElement;
    const isName = field.classList.contains('name');
    // While an input method composes, the field's text is its own: written once chosen, at compositionend, and left
    // alone by renders meanwhile (see #composing).
    if (event.type === 'compositionstart' || (event as InputEvent).isComposing) {
      this.#composing = `${index}:${isName}`;
      return;
    }
    this.#composing = undefined;
    const text = isName ? nameText : valueText;
    const written = text(field.value);
    if (written !== field.value) {
      const caret = text(field.value.slice(0, field.selectionStart ?? field.value.length)).length;
      field.value = written;
      field.setSelectionRange(caret, caret);
    }
    const url = splitQuery(this.currentUrl);
    if (!url.parts) return;
    // The other half as it is written in the URL: only the half edited is encoded.
    url.parts[index] = isName ? field.value + (value === undefined ? '' : `=${value}`) : `${name}=${field.value}`;
    this.currentUrl = joinQuery(url);
  }

  /**
   * A query pasted into a name (`a=1&b=2`, `?a=1`, a whole URL) fills the row and adds one per further part, as
   * written: pasted whole it would be one name, its `=` and `&` encoded.
   */
  #onParameterNamePaste(index: number, event: ClipboardEvent, value: string | undefined): void {
    const field = event.target as HTMLInputElement;
    const pasted = (event.clipboardData?.getData('text/plain') ?? '').trim();
    // The name as it reads with the paste in it, so what the row held around it stays.
    const name = field.value.slice(0, field.selectionStart ?? 0) + pasted + field.value.slice(field.selectionEnd ?? field.value.length);
    const query = splitQuery(name).parts?.join('&') ?? name;
    if (!/[=&]/.test(blankedPlaceholders(query)) || /[\r\n]/.test(query)) return;
    const url = splitQuery(this.currentUrl);
    if (!url.parts) return;
    event.preventDefault();
    const added = splitQuery(`?${query}`).parts!.map((part) => parameterOf(part));
    // The row's value goes with the last name pasted, when the paste gave it none.
    if (added.at(-1)![1] === undefined) added.at(-1)![1] = value;
    url.parts.splice(index, 1, ...added.map(([name, value]) => partOf(name, value)));
    this.currentUrl = joinQuery(url);
    // As after typing: the caret at the end of the last value pasted.
    const last = index + added.length - 1;
    this.#focusOnceRendered('.parameter-row input.value', last);
  }

  /** A parameter added at the end of the query (`?` or `&`), focus on its name. */
  #onAddParameter(): void {
    const url = splitQuery(this.currentUrl);
    // A URL ending in ? or & shows an empty row already: that one is focused, not a second & added.
    if (url.parts?.at(-1) !== '') url.parts = [...(url.parts ?? []), ''];
    this.currentUrl = joinQuery(url);
    const index = url.parts!.length - 1;
    this.#focusOnceRendered('.parameter-row input.name', index);
  }

  /** A parameter taken out of the URL; focus and the announcement as for a header row's ✕. */
  #onRemoveParameter(index: number): void {
    const url = splitQuery(this.currentUrl);
    if (!url.parts) return; // the URL lost its query since the render (page code set it)
    this.#focusAfterRemoving(index, 'button.remove-parameter', 'button.add-parameter');
    this.#announcer.announce(`Removed the parameter ${parameterOf(url.parts[index]!)[0].trim() || index + 1}.`);
    url.parts.splice(index, 1);
    this.currentUrl = joinQuery(url);
  }

  #onRowChange(key: number, change: Partial<HeaderRowState>): void {
    this.headerRows = this.headerRows.map((row) => (row.key === key ? { ...row, ...change } : row));
  }

  /**
   * `Name: value` lines pasted into a name field (a header copied from docs, DevTools or a curl -H) fill the row and
   * add one per further line: a name holds no colon, so pasted whole it would only be refused at Send.
   */
  #onNamePaste(key: number, event: ClipboardEvent): void {
    const lines = (event.clipboardData?.getData('text/plain') ?? '').split(/\r?\n/).filter((line) => line.trim());
    // `(?!\/\/)`: the colon of a URL is no header's.
    const headers = lines.map((line) => /^\s*([^\s:]+)\s*:(?!\/\/)\s*(.*?)\s*$/.exec(line));
    if (headers.length === 0 || !headers.every(Boolean)) return;
    event.preventDefault();
    const [first, ...more] = headers.map((header) => ({ name: header![1]!, value: header![2]! }));
    const last = this.headerRows.findIndex((row) => row.key === key) + more.length;
    this.headerRows = this.headerRows.flatMap((row) => (row.key === key ? [{ ...row, ...first }, ...more.map(({ name, value }) => this.#row(name, value))] : [row]));
    // As after typing: the caret after what was pasted, at the end of the last header's value.
    this.#focusOnceRendered('.header-row input.value', last);
  }

  /** Once rendered, focus on the element at `index` of those `selector` matches (a row's field, the URL field). */
  #focusOnceRendered(selector: string, index = 0): void {
    void this.updateComplete.then(() => this.renderRoot.querySelectorAll<HTMLElement>(selector)[index]?.focus());
  }

  /**
   * Focus forward from the ✕ at `index` of those `removeSelector` matches, before its row goes, as after a deletion in
   * a list: to the next row's ✕ (rows are not keyed, so the ✕ in this place stands for the next row once this one
   * goes), or after the last row to the button `addSelector` matches. Moved first: once its ✕ is gone, focus would go
   * to Send.
   */
  #focusAfterRemoving(index: number, removeSelector: string, addSelector: string): void {
    const removes = this.renderRoot.querySelectorAll<HTMLElement>(removeSelector);
    (index < removes.length - 1 ? removes[index] : this.renderRoot.querySelector<HTMLElement>(addSelector))?.focus();
  }

  #onAddRow(): void {
    this.headerRows = [...this.headerRows, this.#row()];
    this.#focusOnceRendered('.header-row:last-of-type input.name');
  }

  #onRemoveRow(key: number): void {
    const index = this.headerRows.findIndex((row) => row.key === key);
    this.#focusAfterRemoving(index, 'button.remove', 'button.add-header');
    // Said: the ✕ that keeps focus is the same button, renamed after the next row, which a screen reader does not read.
    this.#announcer.announce(`Removed the header ${this.headerRows[index]!.name.trim() || index + 1}.`);
    this.headerRows = this.headerRows.filter((row) => row.key !== key);
  }

  /**
   * The fix offered beside the warning of a JSON body without Content-Type: a switched-off Content-Type row switched
   * on (given application/json unless its value is a JSON type already), else a row added. Focus goes to the row's
   * value, as the warning and its button go.
   */
  #onAddContentType(): void {
    const off = this.headerRows.find((row) => !row.enabled && row.name.trim().toLowerCase() === 'content-type');
    const value = off && /json/i.test(off.value) ? off.value : 'application/json';
    const row = off ? { ...off, enabled: true, value } : this.#row('Content-Type', value);
    this.headerRows = off ? this.headerRows.map((each) => (each === off ? row : each)) : [...this.headerRows, row];
    const index = this.headerRows.indexOf(row);
    this.#announcer.announce(`${off ? 'Switched on' : 'Added'} the header Content-Type: ${value}.`);
    this.#focusOnceRendered('.header-row input.value', index);
  }

  /** The fix offered for a name spelt as a variable of the environment is: that variable in its place, in the URL. */
  #onUseVariable(typo: string, near: string): void {
    let url = this.currentUrl;
    // From the end, so that the places of those before stay right.
    for (const { start, end, name } of [...scanPlaceholders(url)].reverse()) if (name.trim() === typo) url = `${url.slice(0, start)}{{${near}}}${url.slice(end)}`;
    this.currentUrl = url;
    this.#announcer.announce(`Changed {{${typo}}} to {{${near}}} in the URL.`);
    // The button goes with the typo: focus goes to the URL it changed.
    this.#focusOnceRendered('#url');
  }

  /** Puts back the request as it was edited before a load replaced it. */
  #onRestoreDraft(): void {
    const { method, url, rows, body, notices } = this.draft!;
    [this.currentMethod, this.currentUrl, this.headerRows, this.currentBody, this.notices] = [method, url, rows, body, notices];
    this.draft = undefined;
    this.#announcer.announce('Your edits are back.');
    this.#focusOnceRendered('#url');
  }

  /** The request being edited, to keep, and the key that tells it from another. */
  #editedRequest(): { request: EditedRequest; key: string } {
    const request = { method: this.currentMethod, url: this.currentUrl, rows: this.headerRows, body: this.currentBody, notices: this.notices };
    return { request, key: JSON.stringify([request.method, request.url, request.rows.map(({ name, value, enabled }) => [name, value, enabled]), request.body]) };
  }

  #onKeydown(event: KeyboardEvent): void {
    // Escape cancels a send in flight, as Cancel does, unless an element inside took it first (an edit in the environment
    // panel, Clear all's question: they stop it) or an input method cancels its composition with it. Stopped here too:
    // a dialog around the console would close.
    if (event.key === 'Escape' && !event.defaultPrevented && !event.isComposing && this.#send.state.status === 'pending') {
      event.preventDefault();
      event.stopPropagation();
      this.cancel();
    }
    // Enter that ends an input method's composition only chooses the text (Safari says so by keyCode 229 alone).
    if (event.key !== 'Enter' || event.isComposing || event.keyCode === 229) return;
    const target = event.target as Element;
    // Enter alone sends from the URL field, as in Postman and Hoppscotch; elsewhere (a body, a value) it is Ctrl or ⌘ + Enter.
    const sends = event.ctrlKey || event.metaKey || (target.id === 'url' && !event.shiftKey && !event.altKey);
    // A key held down repeats: one send per press, and Enter held on Send neither cancels that send nor sends again.
    if (sends || (event.repeat && target.id === 'send')) event.preventDefault();
    if (sends && !event.repeat) void this.send();
  }

  #onHistorySelect(event: TicHistorySelectEvent): void {
    // Heard on <request-history> itself, before the page's listeners: loaded in the update that follows, once they have
    // all had their say, unless one called preventDefault() (to ask before the user's edits are replaced).
    this.#picked = event;
    this.requestUpdate();
  }

  // --- Public methods -----------------------------------------------------------------------------

  /**
   * Sends the request being edited, as the Send button does; presets or a configuration set just before apply first.
   * Resolves when it has completed or failed.
   */
  async send(): Promise<void> {
    // What the page set just before (`el.url = …; el.send()`) is loaded first, not left to cancel this send.
    if (this.isUpdatePending) this.performUpdate();
    const engine = this.#engine;
    if (!engine || !engine.config.enabled || this.#send.state.status === 'pending') return;
    // Shown in place of the console (a preset it cannot load, a configuration script that came broken): said, not sent.
    const problem = this.configProblem ?? this.presetProblem;
    if (problem) {
      this.#fail(new RequestError('invalid-request', problem));
      return;
    }
    this.#announcer.clear();
    // Kept once history has it: a send refused before it went out, or cancelled before its response, is not there.
    const sentKey = this.#editedRequest().key;
    this.draft = undefined;
    // The values the environment panel masks (keys the reader set too) are kept out of the entry this send adds: one the
    // page replaces later (a rotated token) would no longer be masked in its row, and would stay stored. Not one that
    // refers to variables (`Bearer {{token}}`): it holds no secret, and the request as written would lose them.
    for (const secret of this.#maskedValues()) if (!secret.includes('{{')) engine.history.redactValue(secret);
    let prepared;
    try {
      prepared = engine.prepare(this.#request());
    } catch (error) {
      this.#fail(error);
      return;
    }
    const beforeSend = new TicBeforeSendEvent(prepared);
    this.dispatchEvent(beforeSend);
    if (beforeSend.defaultPrevented) return;
    const { request } = beforeSend;
    await this.#send.run(async (signal, onProgress) => {
      let head: ResponseHead | undefined;
      const progressed = (progress: ResponseProgress) => {
        head ??= progress; // the first, told as the headers come, holds no body
        onProgress(progress);
      };
      try {
        return await engine.execute(request, { signal, onProgress: progressed });
      } catch (error) {
        if (head && error instanceof RequestError) this.#started.set(error, { head, request });
        throw error;
      }
    }, (ended) => {
      const recorded = ended.status === 'complete' ? ended.response.historyEntry : ended.status === 'error' ? ended.error.historyEntry : undefined;
      if (recorded !== undefined) {
        this.#keptKey = sentKey;
        this.#keep(recorded.id, ended);
      }
      this.#tellEnded(ended);
    });
  }

  /** Tells the page how a send ended: at its end, or as soon as another request took its place. */
  #tellEnded(ended: SendState): void {
    if (ended.status === 'complete') {
      // Unless another request was loaded meanwhile: the notice is about that one.
      if (ended.response.status < 400 && this.#send.state === ended) this.notices = [];
      this.dispatchEvent(new TicResponseEvent(ended.response));
    } else if (ended.status === 'error') {
      this.dispatchEvent(new TicRequestErrorEvent(ended.error));
    }
  }

  /** Cancels the request in flight. */
  cancel(): void {
    this.#send.cancel();
  }

  // Send becomes Cancel in place: the second click of a double-click on Send (detail 2) must not cancel it.
  readonly #onCancelClick = (event: MouseEvent): void => {
    if (event.detail <= 1) this.cancel();
  };

  /** The Content-Type of the response shown, complete or cancelled; '' for none. */
  #shownContentType(): string {
    const state = this.#send.state;
    if (state.status === 'complete') return state.response.contentType;
    return (state.status === 'error' && this.#stopped(state.error)?.head.contentType) || '';
  }

  /** Keeps how a send ended for its history entry (see KEPT_RESPONSES); for a body too large, its size. */
  #keep(id: string, state: SendState): void {
    const cause = state.status === 'error' ? state.error.cause : undefined;
    const size = state.status === 'complete' ? state.response.size : cause instanceof ResponseBodyError ? cause.received : 0;
    this.#kept.delete(id);
    this.#kept.set(id, size > KEPT_BODY_LIMIT ? formatBytes(size) : state);
    if (this.#kept.size > KEPT_RESPONSES) this.#kept.delete(this.#kept.keys().next().value!);
  }

  /**
   * Lets go of the sends kept for entries no longer in the history (deleted, cleared, evicted; or another history, or
   * none), and empties the panel showing one.
   */
  #keepListed(): void {
    const history = this.#engine?.history;
    for (const id of this.#kept.keys()) if (!history || !holds(history, id)) this.#kept.delete(id);
    if (this.#earlier && !this.#kept.has(this.#earlier.id)) {
      if (this.#shownEarlier()) this.#send.reset();
      this.#earlier = undefined;
    }
  }

  /** The earlier send the panel shows, picked in the history. */
  #shownEarlier() {
    return this.#earlier?.state === this.#send.state ? this.#earlier : undefined;
  }

  /** Above the earlier send shown: when it was sent (as its history row says it), and that this request's is not. */
  #earlierNote(): string | undefined {
    const earlier = this.#shownEarlier();
    if (!earlier) return undefined;
    const { state, at, tooLarge } = earlier;
    const time = formatEntryTime(at, new Date());
    return tooLarge
      ? `The response of ${time} (${tooLarge}) is not kept: only those up to 1 MB are.`
      : `${state.status === 'error' && !this.#stopped(state.error) ? 'Failure' : 'Response'} of ${time}, from history; Send to send again.`;
  }

  /**
   * The values masked in the response panel; for an earlier send, also those masked when it was sent (a key rotated
   * since), which history keeps out of its entries: shown as it was then.
   */
  #responseMasks(masked = this.#maskedValues()): readonly string[] {
    return this.#shownEarlier() ? [...new Set([...masked, ...this.#engine!.history.redactedValues])].sort((a, b) => b.length - a.length) : masked;
  }

  /** `text` in blocks laid out as they are scrolled near, worked out once for `of`, the body it is the text of. */
  #laidOut(of: object, text: string) {
    let blocks = this.#textBlocks.get(of);
    if (blocks === undefined) this.#textBlocks.set(of, (blocks = chunkedText(text)));
    return blocks;
  }

  /** What came of a send the reader cancelled once its response had started. */
  #stopped(error: RequestError) {
    return error.kind === 'aborted' ? this.#started.get(error) : undefined;
  }

  /**
   * Loads a past request (e.g. from history) into the editor, replacing the request being edited: the request as
   * written (`entry.written`, placeholders unresolved) when the entry has it. Unsent edits it replaces are offered back
   * by a Restore your edits button until the next edit or send. The response panel is cleared, and a
   * send in flight is cancelled: what it brings belongs to the request it sent. `headers` and `body` default to none,
   * an empty `method` to GET; a field of the wrong type throws a `TypeError`, and nothing is loaded.
   */
  load(entry: Pick<HistoryEntry, 'method' | 'url'> & Partial<HistoryEntry>): void {
    const { url, headers = {}, body = entry.body ?? '' } = entry.written ?? entry;
    // Checked before anything changes: a page's mistake must not leave half a request loaded, or break rendering.
    const problem = presetProblem({ method: entry.method, url, headers, body }, 'given to load()');
    if (problem) throw new TypeError(problem);
    const [edited, kept] = [this.#editedRequest(), this.#keptKey];
    // The presets as they are now count as loaded: the later of a load and a preset change wins.
    this.#presetsFrom = this.#presetsKey();
    this.#send.reset();
    this.currentMethod = this.#loadedMethod = methodOrDefault(entry.method);
    this.currentUrl = url;
    this.currentBody = body;
    this.headerRows = Object.entries(headers).map(([name, value]) => this.#row(name, value));
    this.notices = [...(entry.bodyTruncated ? ['truncated-body' as const] : []), ...(this.#holdsRedacted() ? ['credentials' as const] : [])];
    this.#keptKey = this.#editedRequest().key;
    // Edits made since the last load or send are offered back (not the blank request the first load replaces, nor edits
    // equal to what is loaded); with none, those an earlier load replaced still are.
    if (kept === undefined || edited.key === kept || edited.key === this.#keptKey) return;
    this.draft = edited.request;
    // A history pick says it with what it loaded; a page's Try it button moves focus, and nothing else would tell.
    this.#announcer.announce('Restore your edits puts back the request you were editing.');
  }

  /**
   * Focuses the URL field, so a page's "Try it" button can hand the keyboard to the console. An override rather
   * than `delegatesFocus`, which would pick the method select, and on a click anywhere in the console move focus to
   * it.
   */
  override focus(options?: FocusOptions): void {
    // Added or configured just now, the console renders at the end of the task: rendered now, the field is there.
    if (this.isUpdatePending && this.isConnected) this.performUpdate();
    const url = this.renderRoot?.querySelector<HTMLInputElement>('#url');
    if (url) url.focus(options);
    else super.focus(options);
  }

  /** Whether the request still holds a credential that history did not store. */
  #holdsRedacted(): boolean {
    // The body too: a key the reader set, kept out of history (History.redactValue), may have been in it.
    return this.currentUrl.includes(REDACTED) || this.headerRows.some((row) => row.enabled && row.value.includes(REDACTED)) || (this.#bodyAllowed() && this.currentBody.includes(REDACTED));
  }

  #fail(error: unknown): void {
    const failure = error instanceof RequestError ? error : new RequestError('invalid-request', (error as Error).message, { cause: error });
    this.#send.fail(failure);
    this.dispatchEvent(new TicRequestErrorEvent(failure));
  }

  /**
   * The values the environment panel masks, those the reader set included, in every environment (a failure shown stays
   * when the reader picks another), longest first (a value holding another is masked whole): kept out of download
   * names, failures and the history's rows.
   */
  #maskedValues(): string[] {
    const environments = this.#engine?.environments;
    if (!environments) return [];
    const variables = environments.list().flatMap((environment) => Object.entries(environment.variables));
    const values = [...readerSecrets(environments), ...variables.filter(([name, value]) => maskedValue(name, value) === MASK).map(([, value]) => value)];
    return [...new Set(values)].sort((a, b) => b.length - a.length);
  }

  #show(response: ConsoleResponse): ShownResponse {
    if (this.#shown?.response !== response) {
      this.#forgetShown();
      const body = presentBody(response);
      this.#shown = {
        response,
        body,
        highlighted: body.kind === 'json' && body.highlight ? highlight(body.text, 'javascript') : undefined,
        // Nothing to download from a 204, a 304 or a HEAD response.
        download: response.download && response.size > 0 ? URL.createObjectURL(response.download) : undefined,
        fileName: downloadName(response, this.#responseMasks()),
        notAnImage: false,
        imagePolicy: body.kind === 'image' ? new PolicyViolationWatch('img-src', (blocked) => blocked === 'blob' || blocked.startsWith('blob:')) : undefined,
        imageBlocked: false,
      };
    }
    return this.#shown;
  }

  /** Lets go of what was made to show a body (its object URL, the image's policy watch), unless it is `kept`'s. */
  #forgetShown(kept?: object): void {
    if (this.#shown && this.#shown.response !== kept) {
      if (this.#shown.download) URL.revokeObjectURL(this.#shown.download);
      this.#shown.imagePolicy?.stop();
      this.#shown = undefined;
    }
    if (this.#partial && this.#partial.error !== kept) {
      URL.revokeObjectURL(this.#partial.url);
      this.#partial = undefined;
    }
  }

  /** The response shown, or the failure whose body so far may be shown. */
  #shownBodyOf(): object | undefined {
    const state = this.#send.state;
    return state.status === 'complete' ? state.response : state.status === 'error' ? state.error : undefined;
  }

  /**
   * The download of the body so far of a send that failed part-way, named as the whole would be, marked partial; made
   * once per failure.
   */
  #partialDownload(error: RequestError, bytes: Uint8Array): { url: string; fileName: string } | undefined {
    if (this.#partial?.error !== error) {
      this.#forgetShown();
      const started = this.#started.get(error);
      if (!started) return undefined;
      const name = downloadName({ ...started.head, redirectedTo: undefined, request: started.request }, this.#responseMasks());
      // Opened in a tab, a body must never run as HTML on the page's origin (see ReadBody.whole).
      this.#partial = { error, url: URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' })), fileName: name.replace(/(\.\w{1,6})?$/, '-partial$1') };
    }
    return this.#partial;
  }

  /**
   * Copies a body as shown (laid out, if JSON or XML; the part shown, if cut), and says so on the button and aloud.
   * `of`: the response, or the failure whose body so far is shown; `what`: the body as said (`the response body`).
   */
  async #copyBody(of: object, text: string, what: string): Promise<void> {
    const stillShown = () => this.isConnected && this.#shownBodyOf() === of;
    // Where copying is refused, the body shown is selected instead, to copy by hand; not another response's body, which
    // may have taken its place while the clipboard answered.
    const copied = await copyText(text, async () => (stillShown() ? this.renderRoot.querySelector('[part="response-body"] pre') : null));
    if (!this.isConnected) return;
    // Said even when another response is shown now: the reader asked, and the clipboard holds what they asked for.
    this.#announcer.announce(copied ? `Copied ${what}.` : stillShown() ? 'Copy is blocked here: the body is selected, press Ctrl+C (or Cmd+C) to copy it.' : 'Copy is blocked here.');
    // Another response (or none) shown meanwhile: the button's feedback would be about a body no longer there.
    if (!stillShown()) return;
    this.#bodyCopied = { of, state: copied ? 'copied' : 'blocked' };
    this.requestUpdate();
    clearTimeout(this.#bodyCopyTimer);
    this.#bodyCopyTimer = setTimeout(() => {
      this.#bodyCopied = undefined;
      this.requestUpdate();
    }, COPY_FEEDBACK_TIME);
  }

  /**
   * An image preview that failed: refused by the page's Content-Security-Policy, or a body the browser cannot decode
   * (text, or an SVG, sent as image/png), then shown as a body of unknown type.
   */
  async #onImageError(response: ConsoleResponse): Promise<void> {
    const shown = this.#shown;
    if (shown?.response !== response || shown.notAnImage || shown.imageBlocked) return;
    const blocked = await shown.imagePolicy?.seen();
    shown.imagePolicy?.stop();
    if (this.#shown !== shown) return;
    if (blocked) {
      shown.imageBlocked = true;
    } else {
      shown.notAnImage = true;
      shown.body = presentBody({ ...response, contentType: '' });
    }
    this.requestUpdate();
  }

  #onImageLoad(): void {
    this.#shown?.imagePolicy?.stop();
  }

  // --- Rendering ----------------------------------------------------------------------------------

  /**
   * A field's text (the URL, a header's or parameter's) with its placeholders marked (known ones highlighted, unresolved
   * ones flagged with why), and whether it has unresolved ones: only then does it describe its field, by why alone
   * (the element `id`; a variable another field lacks is not this one's, and the text is the field's value, read
   * already). `offerFixes`: with a Use {{pet_id}} button for a misspelt name, which rewrites the URL.
   */
  #markedTemplate(text: string, id: string, { missing, cyclic }: Unresolved, environments: EnvironmentManager, offerFixes = false) {
    const spans = [...scanPlaceholders(text)];
    if (spans.length === 0) return { marked: nothing, unresolved: false };
    const variables: Record<string, string | undefined> = environments.active()?.variables ?? {};
    const parts = [];
    const problems = new Set<string>();
    /** Undefined names spelt as a variable of the environment is (`petId` for `pet_id`), and that variable. */
    const typos = new Map<string, string>();
    let copiedUpTo = 0;
    for (const span of spans) {
      parts.push(text.slice(copiedUpTo, span.start));
      const name = span.name.trim();
      const near = name && missing.includes(name) ? speltAlike(name, environments.active()) : undefined;
      if (near !== undefined) typos.set(name, near);
      const problem = cyclic.includes(name)
        ? `${name} refers back to itself through its value, or nests more than 10 levels deep`
        : !missing.includes(name)
          ? undefined
          : name === ''
            ? 'An empty placeholder names no variable'
            : `${name} is not defined in the active environment`;
      const said = problem && (near === undefined ? problem : `${problem}. Did you mean {{${near}}}?`);
      if (said) problems.add(near === undefined ? `${said}.` : said);
      // Hovered, a known variable shows its value as the environment panel shows it: as written (one that refers to a
      // secret shows the reference, not the secret), masked by the same rules. A dynamic one is new each time: its name.
      const value = said || name.startsWith('$') ? undefined : variables[name];
      const title = said || (value === undefined ? name : `${name} = ${cutForTooltip(maskedValue(name, value) ?? value)}`);
      parts.push(html`<mark class=${said ? 'variable missing' : 'variable'} title=${title}>${text.slice(span.start, span.end)}</mark>`);
      copiedUpTo = span.end;
    }
    parts.push(text.slice(copiedUpTo));
    const unresolved = problems.size > 0;
    return {
      marked: html`<p class="url-template">${parts}${unresolved ? html`<span id=${id} class="visually-hidden">${[...problems].join(' ')}</span>` : nothing}</p>
        ${offerFixes && typos.size > 0 ? html`<p class="set-missing">${[...typos].map(([typo, near]) => html`<button @click=${() => this.#onUseVariable(typo, near)}>Use {{${near}}}</button>`)}</p>` : nothing}`,
      unresolved,
    };
  }

  /**
   * A header's or parameter's field holding placeholders the environment cannot fill is marked as the URL field is
   * (invalid, described by why, its text marked under its row); one whose placeholders are all defined, not at all.
   */
  #fieldMarks(text: string, id: string) {
    const { marked, unresolved } = this.#markedTemplate(text, id, this.#unresolved, this.#engine!.environments);
    return unresolved ? { invalid: 'true', id, marked } : { invalid: nothing, id: nothing, marked: nothing };
  }

  /**
   * Where the request goes, once its placeholders and base_url are filled in: seen by keyboard and touch readers too,
   * not only in a placeholder's tooltip. Masked as the environment panel masks; left out while a variable is missing
   * or the URL holds a dynamic one (a new value on every render).
   */
  #renderResolvedUrl(template: SnippetRequest | undefined, { missing, cyclic }: Unresolved, environments: EnvironmentManager, maskedValues: readonly string[]) {
    if (!template || missing.length > 0 || cyclic.length > 0) return nothing;
    // A secret's placeholder stands for the mask before resolving: a short one (`pin: 123`) would be found nowhere after.
    const variables = environments.active()?.variables ?? {};
    const masked = parseTemplate(template.url)
      .map((part) => {
        if (typeof part === 'string') return part;
        const value = variables[part.trimmed];
        return value !== undefined && maskedValue(part.trimmed, value) === MASK ? MASK : part.literal;
      })
      .join('');
    let url, unmasked;
    try {
      url = environments.resolve(masked);
      // A dynamic variable ({{$guid}}, or one a value refers to) is new on each resolve, and so on each render.
      if (environments.resolve(masked) !== url) return nothing;
      unmasked = environments.resolve(template.url); // for bullets of its own (see withNamedMasks)
    } catch {
      return nothing; // values that grow past the limit: the send explains it
    }
    // Nothing filled in, or no URL a send would take (a base_url without its scheme): the send explains it.
    if (url === this.currentUrl.trim() || !isHttpUrl(url)) return nothing;
    const resolved = withSecretsMasked(url, maskedValues);
    return html`<p class="url-template resolved-url" part="resolved-url"><span class="visually-hidden">Sends to </span><span aria-hidden="true">→ </span>${withNamedMasks(resolved, unmasked)}</p>`;
  }

  /** The URL's query as rows; the URL field and the rows edit the same text. `level`: their heading's aria-level. */
  #renderParameters(level: number | typeof nothing) {
    return html`<fieldset class="parameters" part="parameters">
      <legend><h3 aria-level=${level}>Query parameters</h3></legend>
      ${(splitQuery(this.currentUrl).parts ?? []).map((part, index) => {
        const parameter = parameterOf(part);
        const [name, value] = parameter;
        const [nameMarks, valueMarks] = [this.#fieldMarks(name, `parameter-${index}-name`), this.#fieldMarks(value ?? '', `parameter-${index}-value`)];
        const edited = (e: Event) => this.#onParameterInput(index, e, parameter);
        // A field an input method composes in keeps its text: set back to the URL's on a render, the composition ends.
        const shown = (isName: boolean, text: string) => (this.#composing === `${index}:${isName}` ? noChange : live(text));
        return html`<div class="parameter-row">
          <input class="name" aria-label="Parameter ${index + 1} name" aria-invalid=${nameMarks.invalid} aria-describedby=${nameMarks.id} placeholder="Name" spellcheck="false" .value=${shown(true, name)} @input=${edited} @compositionstart=${edited} @compositionend=${edited} @paste=${(e: ClipboardEvent) => this.#onParameterNamePaste(index, e, value)} />
          <input class="value" aria-label="Parameter ${index + 1} value" aria-invalid=${valueMarks.invalid} aria-describedby=${valueMarks.id} placeholder="Value" spellcheck="false" .value=${shown(false, value ?? '')} @input=${edited} @compositionstart=${edited} @compositionend=${edited} />
          <button class="remove-parameter" aria-label="Remove parameter ${name.trim() || index + 1}" @click=${() => this.#onRemoveParameter(index)}>✕</button>
        </div>
        ${nameMarks.marked}${valueMarks.marked}`;
      })}
      <button class="add-parameter" @click=${this.#onAddParameter}>Add parameter</button>
    </fieldset>`;
  }

  #renderHeaderRows(level: number | typeof nothing) {
    return html`<fieldset class="headers" part="headers">
      <legend><h3 aria-level=${level}>Headers</h3></legend>
      ${this.headerRows.map((row, index) => {
        // A row switched off is not sent: what it lacks is no problem.
        const marks = (field: 'name' | 'value') => this.#fieldMarks(row.enabled ? row[field] : '', `header-${index}-${field}`);
        const [nameMarks, valueMarks] = [marks('name'), marks('value')];
        // Not keyed: every field is bound to its row's state, so a row's DOM can show another row after a removal.
        // The switch and ✕ are named after the header, so a list of a screen reader's buttons tells them apart.
        return html`<div class="header-row">
          <input type="checkbox" aria-label="Send header ${row.name.trim() || index + 1}" .checked=${row.enabled} @change=${(e: Event) => this.#onRowChange(row.key, { enabled: (e.target as HTMLInputElement).checked })} />
          <input class="name" aria-label="Header ${index + 1} name" aria-invalid=${nameMarks.invalid} aria-describedby=${nameMarks.id} placeholder="Name" spellcheck="false" .value=${row.name} @input=${(e: Event) => this.#onRowChange(row.key, { name: (e.target as HTMLInputElement).value })} @paste=${(e: ClipboardEvent) => this.#onNamePaste(row.key, e)} />
          <input class="value" aria-label="Header ${index + 1} value" aria-invalid=${valueMarks.invalid} aria-describedby=${valueMarks.id} placeholder="Value" spellcheck="false" .value=${row.value} @input=${(e: Event) => this.#onRowChange(row.key, { value: (e.target as HTMLInputElement).value })} />
          <button class="remove" aria-label="Remove header ${row.name.trim() || index + 1}" @click=${() => this.#onRemoveRow(row.key)}>✕</button>
        </div>
        ${nameMarks.marked}${valueMarks.marked}`;
      })}
      <button class="add-header" @click=${this.#onAddRow}>Add header</button>
      ${this.#renderDefaultHeaders()}
    </fieldset>`;
  }

  /** The configuration's default headers, sent too unless a row of the same name replaces one: nothing sent unseen. */
  #renderDefaultHeaders() {
    const engine = this.#engine;
    const defaults = Object.entries(engine?.config.defaultHeaders ?? {});
    if (!engine || defaults.length === 0) return nothing;
    // Names as a send compares them: resolved, so a row named {{auth_header}} replaces the header it names.
    const sentName = (name: string) => {
      try {
        return engine.environments.resolve(name).trim().toLowerCase();
      } catch {
        return name.trim().toLowerCase(); // a name too large to resolve; the send explains it
      }
    };
    const replaced = new Set(this.headerRows.filter((row) => row.enabled).map((row) => sentName(row.name)));
    return html`<p class="muted default-headers-label" id="default-headers-label">Also sent, from the configuration (a row of the same name replaces one):</p>
      <ul class="default-headers" part="default-headers" aria-labelledby="default-headers-label">
        ${defaults.map(([name, value]) =>
          replaced.has(name.toLowerCase())
            ? html`<li class="replaced"><code>${name}: ${withNamedMasks(listedValue(name, value), value)}</code> <span class="muted">(replaced by your row)</span></li>`
            : html`<li><code>${name}: ${withNamedMasks(listedValue(name, value), value)}</code></li>`,
        )}
      </ul>`;
  }

  /** `maskedValues`: as #maskedValues() gives them, which a URL the response names may hold. */
  #renderResponse(response: ConsoleResponse, maskedValues: readonly string[]) {
    const statusClass = statusClassOf(response.status);
    const { body, highlighted, download, fileName, notAnImage, imageBlocked } = this.#show(response);
    // Only text is shown in part: an image is previewed from the whole body, and binary data is not shown at all.
    const shownWhole = !response.truncated || body.kind === 'image' || body.kind === 'binary';
    const [shownSize, size] = formatBytesOf(response.body.byteLength, response.size);
    // The body is focusable: a long body scrolls, and keyboard users must be able to scroll it. A group, not a region:
    // a landmark in every console would undo what `label` does for a page of consoles.
    return html`
      <p class="status-line" part="status">
        <span class="status ${statusClass}">${statusWithReason(response)}</span>
        ${this.#renderEditCredentials(response)}
        <span dir="ltr">${Math.round(response.timing.total)} ms</span>
        <span class="muted" dir="ltr">(headers in ${Math.round(response.timing.headers)} ms)</span>
        <span dir="ltr">${bodySize(response)}</span>
        ${this.#bodyActions(
          response,
          body.kind === 'text' || body.kind === 'json' ? { text: body.text, what: shownWhole ? 'the response body' : 'the part of the body shown', said: shownWhole ? undefined : `the first ${shownSize} of the body, as shown` } : undefined,
          download ? { url: download, fileName, name: downloadLabel('Download the response body', fileName, response.size) } : undefined,
        )}
      </p>
      ${response.redirectedTo ? html`<p class="muted redirected" part="redirected">Redirected to <code>${withNamedMasks(withSecretsMasked(response.redirectedTo, maskedValues), response.redirectedTo)}</code></p>` : nothing}
      ${response.warnings.map((warning) => html`<p class="notice" role="note">${warning}</p>`)}
      ${this.#renderSetButtons(response.request.missing)}
      ${this.#renderHeaders(response.headers, headersHiddenByCors(response.headers, response.request, response.redirectedTo))}
      ${!shownWhole
        ? html`<p class="truncated" role="note">
            Showing the first ${shownSize} of ${size}.
            ${download ? html`<a href=${download} download=${fileName} aria-label=${downloadLabel('Download the whole body', fileName, response.size)}>Download the whole body</a>.` : 'The body is too large to download here.'}
          </p>`
        : nothing}
      ${'notes' in body ? body.notes.map((note) => html`<p class="notice body-note" role="note">${note}</p>`) : nothing}
      <div class="response-body" part="response-body" tabindex="0" role="group" aria-label="Response body">
        ${notAnImage ? html`<p class="not-an-image">Not a valid image (${response.contentType}, ${formatBytes(response.size)}).</p>` : nothing}
        ${body.kind === 'empty'
          ? html`<p class="muted">No body.</p>`
          : body.kind === 'image'
            ? !download
              ? html`<p class="muted">An image of ${formatBytes(response.size)}, too large to preview or download here.</p>`
              : imageBlocked
                ? html`<p class="muted">An image of ${formatBytes(response.size)}, not previewed: this page’s Content-Security-Policy does not allow blob: images (add blob: to its img-src). <a href=${download} download=${fileName} aria-label=${downloadLabel('Download it', fileName, response.size)}>Download it</a>.</p>`
                : html`<img src=${download} alt="Image returned by ${response.request.method} ${spokenMasks(withSecretsMasked(response.request.url, maskedValues), response.request.url)}" @load=${this.#onImageLoad} @error=${() => this.#onImageError(response)} />`
            : body.kind === 'binary'
              ? notAnImage
                ? nothing
                : html`<p class="muted">Binary data (${response.contentType || 'no content type'}, ${formatBytes(response.size)})${download ? '' : ', too large to download here'}.</p>`
              : highlighted !== undefined
                ? html`<pre><code>${unsafeHTML(highlighted)}</code></pre>`
                : html`<pre><code>${this.#laidOut(body, body.text)}</code></pre>`}
      </div>
    `;
  }

  /**
   * A Set button for each variable a response went out without that the environment still lacks: it opens the
   * environment panel's field for it, which on a narrow page is far below the warning that names it.
   */
  #renderSetButtons(sentWithout: readonly string[] = []) {
    const settable = sentWithout.filter((name) => name !== '' && !name.startsWith('$') && this.#unresolved.missing.includes(name));
    // Without an environment there is nowhere to set one.
    if (settable.length === 0 || !this.#engine?.environments.active()) return nothing;
    const picker = () => this.renderRoot.querySelector<EnvPicker>('env-picker');
    return html`<p class="set-missing">${settable.map((name) => html`<button @click=${() => picker()?.editVariable(name)}>Set ${name}</button>`)}</p>`;
  }

  /**
   * Beside a 401 or 403, an Edit token button for each variable the request's credentials came from (see
   * credentialVariables) that the environment defines: a defined token that is wrong (expired) gets no warning, and its
   * field in the environment panel is far below on a narrow page. One it lacks has its Set button instead.
   */
  #renderEditCredentials({ status, request }: ConsoleResponse) {
    const picker = this.renderRoot.querySelector<EnvPicker>('env-picker');
    const variables = this.#engine?.environments.active()?.variables;
    if ((status !== 401 && status !== 403) || !request.written || !variables || !picker || picker.readonly || picker.hideVariables) return nothing;
    const names = credentialVariables(request.written, this.#engine!.config.defaultHeaders).filter((name) => Object.hasOwn(variables, name));
    return names.slice(0, CREDENTIAL_BUTTONS).map((name) => html`<button class="edit-credential" @click=${() => picker.editVariable(name)}>Edit token {{${name}}}</button>`);
  }

  // The table scrolls past a height, as the body does (fifty headers pushed the body off screen): focusable, to scroll
  // by keys.
  #renderHeaders(headers: ConsoleResponse['headers'], hiddenByCors: boolean) {
    return html`<details class="response-headers" ?open=${this.#headersOpen} @toggle=${(event: Event) => (this.#headersOpen = (event.target as HTMLDetailsElement).open)}>
      <summary>Response headers (${headers.length})</summary>
      ${hiddenByCors
        ? html`<p class="muted headers-note">From another origin, a page sees only the headers the API lists in <code>Access-Control-Expose-Headers</code> and the CORS-safelisted ones; never <code>Set-Cookie</code>.</p>`
        : nothing}
      <div class="headers-table" tabindex="0" role="group" aria-label="Response headers">
        <table>
          <tbody>
            ${headers.map(([name, value]) => html`<tr><th scope="row">${name}</th><td>${headerText(value)}</td></tr>`)}
          </tbody>
        </table>
      </div>
    </details>`;
  }

  /**
   * A response the reader cancelled once it had started (an event stream that never ends is stopped this way): its
   * status, headers and body so far, as a response, said calmly to be cancelled; no alert, nothing went wrong.
   */
  #renderStopped({ head, request }: { head: ResponseHead; request: PreparedRequest }, error: RequestError) {
    return html`
      ${headStatusLine(head, html`<span class="stopped" dir="ltr">${stoppedNote(error)}</span>${this.#partialActions(error)}`)}
      ${this.#renderHeaders(head.headers, headersHiddenByCors(head.headers, request))}
      ${this.#renderPartialBody(error, true)}`;
  }

  /**
   * What a body that stopped part-way had sent (cancelled, timed out or broken off), decoded as the whole would have
   * been: a stream that never ends, such as server-sent events, only ever ends this way. Outside the alert, which is
   * read out whole. `stopped`: under a cancelled response's status, which says how much came.
   */
  #renderPartialBody(error: RequestError, stopped = false) {
    const cause = error.cause;
    if (!(cause instanceof ResponseBodyError) || cause.bytes.byteLength === 0) return nothing;
    const [shown, received] = formatBytesOf(cause.bytes.byteLength, cause.received);
    const text = partialText(cause);
    return html`${stopped
        ? shown === received
          ? nothing
          : html`<p class="muted partial">Showing the first ${shown} of ${received}.</p>`
        : html`<div class="partial-line"><p class="muted partial">${shown === received ? received : `The first ${shown} of ${received}`} had come:</p>${this.#partialActions(error)}</div>`}
      <div class="response-body" part="response-body" tabindex="0" role="group" aria-label="Response body, as far as it came">
        ${text === undefined ? html`<p class="muted">Binary data.</p>` : html`<pre><code>${this.#laidOut(cause, text)}</code></pre>`}
      </div>`;
  }

  /** Copy (text only) and Download of what a body that stopped part-way had sent, as of a complete response; nothing when none came. */
  #partialActions(error: RequestError) {
    const cause = error.cause;
    if (!(cause instanceof ResponseBodyError) || cause.bytes.byteLength === 0) return nothing;
    const text = partialText(cause);
    const download = this.#partialDownload(error, cause.bytes);
    const what = 'the body as far as it came';
    return this.#bodyActions(error, text === undefined ? undefined : { text, what }, download && { ...download, name: downloadLabel(`Download ${what}`, download.fileName, cause.bytes.byteLength) });
  }

  /**
   * The Copy button (a body shown as text) and Download link of a body, named for screen readers with what they act
   * on: after their visible label, which a name must start with (WCAG 2.5.3). `of`: the response, or the failure whose
   * body so far is shown; `said`: the body as the announcement of a copy says it, when not `what`.
   */
  #bodyActions(of: object, copy: { text: string; what: string; said?: string } | undefined, download: { url: string; fileName: string; name: string } | undefined) {
    const state = this.#bodyCopied?.of === of ? this.#bodyCopied.state : 'ready';
    return html`<span class="body-actions">
      ${copy
        ? html`<button class="copy-body" part="copy-body-button" aria-label="${COPY_LABELS[state]}${state === 'blocked' ? ':' : ''} ${copy.what}" @click=${() => this.#copyBody(of, copy.text, copy.said ?? copy.what)}>${COPY_LABELS[state]}</button>`
        : nothing}
      ${download ? html`<a class="download" href=${download.url} download=${download.fileName} aria-label=${download.name}>Download</a>` : nothing}
    </span>`;
  }

  /**
   * A response whose body is still arriving (server-sent events, a slow download): its status, how much came, and the
   * end of its text so far, kept in view while the reader has not scrolled up.
   */
  #renderArriving(progress: ResponseProgress) {
    const text = this.#arrivingText(progress);
    return html`
      ${headStatusLine(progress, html`<span dir="ltr">${formatBytes(progress.received)} so far…</span>`)}
      ${text === undefined
        ? nothing
        : html`<div class="response-body arriving" part="response-body" tabindex="0" role="group" aria-label="Response body, as it arrives">
            <pre><code>${text}</code></pre>
          </div>`}`;
  }

  /**
   * The end of a body still arriving, as text, unless the complete response will not show it as text (an image, binary
   * data); `undefined` then and while none came. Worked out once per part shown, not on every render (a keystroke).
   */
  #arrivingText(progress: ResponseProgress): string | undefined {
    if (this.#arriving?.progress === progress) return this.#arriving.text;
    let text: string | undefined;
    let cut = false;
    if (progress.received > 0) {
      // Decided as for the complete response: by the type, and the first bytes.
      const tail = bodyKindOf(progress.contentType, progress.bytes()) === 'text' ? progress.textTail(ARRIVING_TEXT_BYTES) : undefined;
      cut = !!tail?.cut;
      text = tail && (cut ? `…${tail.text}` : tail.text);
    }
    this.#arriving = { progress, text, cut };
    return text;
  }

  /**
   * Waiting for a response, with the seconds it has taken once there is one: a slow API is told from a stuck console.
   * Shown, not said: the status line said "Sending…", and a screen reader reading every tick would say nothing else.
   */
  #renderWaiting(state: SendState) {
    // A render a second, for as long as the wait: stopped in willUpdate once the state moves on.
    this.#waiting ??= { state, since: performance.now(), timer: setInterval(() => this.requestUpdate(), 1000) };
    const seconds = Math.round((performance.now() - this.#waiting.since) / 1000);
    return html`<p class="muted">Waiting for the response…${seconds > 0 ? html` <span class="elapsed" aria-hidden="true" dir="ltr">${seconds} s</span>` : nothing}</p>`;
  }

  #stopWaitingClock(): void {
    clearInterval(this.#waiting?.timer);
    this.#waiting = undefined;
  }

  /** `maskedValues`: as #maskedValues() gives them, which a failure may quote. */
  #renderResult(maskedValues: readonly string[]) {
    const state = this.#send.state;
    if (state.status === 'idle') return html`<p class="muted">Send the request to see the response here.</p>`;
    if (state.status === 'pending') return state.progress ? this.#renderArriving(state.progress) : this.#renderWaiting(state);
    if (state.status === 'error') {
      const stopped = this.#stopped(state.error);
      if (stopped) return this.#renderStopped(stopped, state.error);
      const title = errorTitle(state.error);
      // Some messages start with the title ("Cancelled: the request…"): said once is enough, and the rest is a sentence.
      const written = state.error.message.startsWith(`${title}: `) ? sentence(state.error.message.slice(title.length + 2)) : state.error.message;
      // A failure may quote the resolved URL, which holds the values the environment panel hides.
      const message = withSecretsMasked(written, maskedValues);
      // Keyed by the failure: the same one again (Send pressed twice on a URL it refuses) is a new alert, said again.
      return html`${keyed(
          state.error,
          // Shown again from history, it is said with what was loaded.
          html`<div class="error" part="error" role=${this.#shownEarlier() ? nothing : 'alert'}>
            <p class="error-title">${title}</p>
            <p>${withNamedMasks(message, written)}</p>
            ${BROWSER_RULES.has(state.error.kind) ? html`<p>${OUTSIDE_THE_BROWSER}</p>` : nothing}
          </div>`,
        )}
        ${this.#renderPartialBody(state.error)}`;
    }
    return this.#renderResponse(state.response, maskedValues);
  }

  #liveStatus(): string {
    const state = this.#send.state;
    // An earlier send is said with what was loaded from history.
    if (this.#shownEarlier()) return '';
    // Said once when the headers come: the growing size would be read out again and again.
    if (state.status === 'pending') return state.progress ? `Receiving the response: ${statusWithReason(state.progress)}.` : 'Sending…';
    if (state.status === 'complete') return `Response ${statusWithReason(state.response)} in ${Math.round(state.response.timing.total)} milliseconds.`;
    // A response the reader cancelled has no alert. A failure is announced by its role="alert" box: said here too,
    // screen readers would read it twice.
    return state.status === 'error' && this.#stopped(state.error) ? `${stoppedNote(state.error)}.` : '';
  }

  /**
   * The request for the snippet: the last one again while equal, so the snippet is not written anew on every render.
   * A request that a send would refuse (two header rows of one name…) has no snippet: the reason is shown instead.
   */
  #snippetRequest(engine: RequestEngine): { request: SnippetRequest | undefined; problem: string | undefined } {
    let template;
    try {
      template = engine.template(this.#request());
    } catch (error) {
      return { request: this.#lastSnippetRequest, problem: (error as Error).message };
    }
    const { method, url, headers, body } = template;
    const last = this.#lastSnippetRequest;
    if (last?.method !== method || last.url !== url || last.body !== body || JSON.stringify(last.headers) !== JSON.stringify(headers)) {
      this.#lastSnippetRequest = { method, url, headers, body };
    }
    return { request: this.#lastSnippetRequest, problem: undefined };
  }

  override render() {
    // The attribute matters only while no configuration came another way (a framework may set the property later).
    const problem = this.configAttribute != null && this.config === undefined ? configAttributeProblem(this.configAttribute) : this.configProblem ?? this.presetProblem;
    if (problem) return html`<div class="error" role="alert"><p class="error-title">The console is misconfigured</p><p>${problem}</p></div>`;
    const engine = this.#engine;
    if (!engine) return nothing;
    if (!engine.config.enabled) return html`<p class="disabled-notice">The API console is turned off for this page.</p>`;
    // Send and Cancel are one button changing role, so focus stays on it when one becomes the other.
    const pending = this.#send.state.status === 'pending';
    const { missing: missingNow, cyclic: cyclicNow, warnings } = engine.inspect(this.#request());
    // The same lists while their content is: new ones on every keystroke would have <env-picker> render again each time.
    const { missing, cyclic } = this.#unresolved;
    if (JSON.stringify([missingNow, cyclicNow]) !== JSON.stringify([missing, cyclic])) this.#unresolved = { missing: missingNow, cyclic: cyclicNow };
    const unresolved = this.#unresolved;
    const snippet = this.#snippetRequest(engine);
    const urlTemplate = this.#markedTemplate(this.currentUrl, 'url-problems', unresolved, engine.environments, true);
    // Once per render: the resolved URL, a failure and the history's rows each mask them.
    const maskedValues = this.#maskedValues();
    // As sent: a method is uppercased (`purge` goes as PURGE).
    const current = shownMethod(this.currentMethod);
    const methods = [...new Set([...METHODS, ...[methodOrDefault(this.method), this.#loadedMethod].map(shownMethod), current])];
    // Options are bound with `.selected` and live(): once the user has picked one, the attribute no longer decides.
    // As a property, a framework may set anything (an operation's summary left undefined).
    const label = typeof this.label === 'string' ? this.label.trim() : '';
    // Named, the console is the landmark: its sections are groups, and its side panel (an aside may not be a group) none.
    // Unnamed, the side panel is named too: a page of such consoles would list a row of unnamed "complementary".
    const part = label ? 'group' : nothing;
    const level = ariaLevel(this.headingLevel);
    // Query parameters, Headers and Body: headings one level under Request's (an h3 without aria-level under an h2).
    const subLevel = level === nothing ? nothing : Math.min(level + 1, 6);
    // The live warning of a body labelled JSON that does not parse (engine.inspect() puts it first) marks the field.
    const invalidBody = warnings[0]?.startsWith(INVALID_JSON_WARNING_START);
    const earlierNote = this.#earlierNote();
    return html`
      <div class="layout" role=${label ? 'region' : nothing} aria-label=${label || nothing} @keydown=${this.#onKeydown}>
        <div class="main">
          <section class="request" part="request" role=${part} aria-label="Request">
            <h2 aria-level=${level}>Request</h2>
            <div class="line">
              <label class="visually-hidden" for="method">Method</label>
              <select id="method" part="method" @change=${this.#onMethodChange}>
                ${methods.map((method) => html`<option .selected=${live(method === current)}>${method}</option>`)}
              </select>
              <label class="visually-hidden" for="url">URL</label>
              <input id="url" part="url" type="text" spellcheck="false" autocomplete="off" placeholder="https://api.example.com/resource or /resource"
                aria-describedby=${urlTemplate.unresolved ? 'url-problems' : nothing} aria-invalid=${urlTemplate.unresolved ? 'true' : nothing} .value=${this.currentUrl} @input=${this.#onUrlInput} />
              <button id="send" part=${pending ? 'cancel-button' : 'send-button'} class=${pending ? 'cancel' : 'primary send'} title=${pending ? 'Cancel the request (Escape)' : `Send (${sendShortcut()})`} @click=${pending ? this.#onCancelClick : this.send}>${pending ? 'Cancel' : 'Send'}</button>
            </div>
            ${urlTemplate.marked}
            ${this.#renderResolvedUrl(snippet.problem === undefined ? snippet.request : undefined, unresolved, engine.environments, maskedValues)}
            ${this.draft ? html`<p class="restore-draft"><button @click=${this.#onRestoreDraft}>Restore your edits</button></p>` : nothing}
            ${this.#renderParameters(subLevel)}
            ${this.#renderHeaderRows(subLevel)}
            ${this.#bodyAllowed()
              ? html`<div class="body-label"><h3 aria-level=${subLevel}><label for="body">Body</label></h3>${JSON_DOCUMENT_START.test(this.currentBody) ? html`<button class="format-body" @click=${this.#onFormatBody}>Format JSON</button>` : nothing}</div>
                  <textarea id="body" part="body" spellcheck="false" rows="6" aria-invalid=${invalidBody ? 'true' : nothing} aria-describedby=${invalidBody ? 'warning-0' : nothing}
                    .value=${this.currentBody} @input=${this.#onBodyInput}></textarea>`
              : nothing}
            ${this.formatNote?.body === this.currentBody ? html`<p class="notice" role="note">${this.formatNote.text}</p>` : nothing}
            ${this.notices.map((notice) => html`<p class="notice" role="note">${RESTORE_NOTICES[notice]}</p>`)}
            ${this.headerRows.map((row, index) => (row.enabled && row.value && !row.name.trim() ? html`<p class="notice" role="note">Header ${index + 1} has a value but no name, so it is not sent.</p>` : nothing))}
            ${warnings.map(
              (warning, index) =>
                // The fix beside the warning it answers; the other warnings stay text alone, as read.
                html`<p class="notice" role="note" id="warning-${index}">${warning}${warning === UNTYPED_JSON_WARNING ? html` <button class="add-content-type" @click=${this.#onAddContentType}>Add Content-Type: application/json</button>` : nothing}</p>`,
            )}
          </section>
          <section class="response" part="response" role=${part} aria-label="Response">
            <h2 aria-level=${level}>Response</h2>
            <div class="visually-hidden" role="status" aria-live="polite">${this.#liveStatus()}</div>
            <!-- A region of its own: sharing the status's, an announcement's blank pause showed the status again. -->
            <div class="visually-hidden announcements" role="status" aria-live="polite">${this.#announcer.text}</div>
            ${earlierNote ? html`<p class="muted earlier">${earlierNote}</p>` : nothing}
            ${this.#renderResult(this.#responseMasks(maskedValues))}
          </section>
          <section class="snippets" part="snippet" role=${part} aria-label="Code">
            <h2 aria-level=${level}>Code</h2>
            <code-snippet exportparts="tabs, copy-button, code" .request=${snippet.request} .problem=${snippet.problem} .generator=${this.#generator} .environments=${engine.environments} .hostWarns=${true} .language=${this.#snippetLanguage}></code-snippet>
          </section>
        </div>
        <aside class="side" part="side" role=${label ? 'none' : nothing} aria-label=${label ? nothing : 'Environment and history'}>
          <env-picker exportparts="select, variables, missing" .headingLevel=${this.headingLevel} .manager=${engine.environments} .missing=${unresolved.missing} .cyclic=${unresolved.cyclic}></env-picker>
          <request-history exportparts="list, clear-button" .headingLevel=${this.headingLevel} .history=${engine.history} .maskedValues=${maskedValues} @tic-history-select=${this.#onHistorySelect}></request-history>
        </aside>
      </div>
    `;
  }
}

/** Whether `history` holds an entry of this id. */
function holds(history: History, id: string): boolean {
  try {
    history.get(id);
    return true;
  } catch {
    return false;
  }
}

/** A default header's value as listed: masked as the code panel masks it while values are hidden. */
function listedValue(name: string, value: string): string {
  return maskedHeaderValue(name, value) ?? value;
}

/** `200 OK`, or `200` alone when the server sent no reason phrase (HTTP/2 sends none). */
function statusWithReason({ status, statusText }: { status: number; statusText: string }): string {
  const reason = headerText(statusText);
  return reason ? `${status} ${reason}` : String(status);
}

function shownMethod(method: string): string {
  return method.trim().toUpperCase();
}

/** Types whose body is a stream of records, read at its end as it comes: server-sent events, lines of JSON. */
const STREAM_TYPE = /^\s*(?:text\/event-stream|application\/(?:x-)?(?:ndjson|jsonlines|jsonl|json-seq))\b/i;

/** A value short enough for a tooltip: its first 200 characters. */
function cutForTooltip(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/** The status line of a response known by its head alone (still arriving, or cancelled), `after` its time to headers. */
function headStatusLine(head: ResponseHead, after: TemplateResult) {
  return html`<p class="status-line" part="status">
    <span class="status ${statusClassOf(head.status)}">${statusWithReason(head)}</span>
    <span class="muted" dir="ltr">(headers in ${Math.round(head.headersAt)} ms)</span>
    ${after}
  </p>`;
}

/** `Cancelled after 1.2 KB`: how much of a response had come when the reader cancelled it. */
function stoppedNote(error: RequestError): string {
  return `Cancelled after ${formatBytes(error.cause instanceof ResponseBodyError ? error.cause.received : 0)}`;
}

/**
 * Failures that are a browser's rule (CORS, mixed content, the page's policy): the reader, who cannot change the
 * site's configuration the message speaks of, can still send the request as a snippet.
 */
const BROWSER_RULES = new Set<RequestError['kind']>(['cors', 'mixed-content', 'csp']);
const OUTSIDE_THE_BROWSER = 'The code under Code (curl, Python, Go, PHP, or the JavaScript run in Node) sends the same request from your own machine, where this browser rule does not apply.';

/**
 * `text` (a URL the request went to, or a failure that may quote one) with every one of `values` (as written, and as a
 * URL writes it: see valueFormsToMask) and its URLs' credentials shown as the mask.
 */
function withSecretsMasked(text: string, values: readonly string[]): string {
  return maskUrlCredentials(withFormsMasked(text, valueFormsToMask(values)));
}

/** A download link's accessible name: its visible label first (WCAG 2.5.3), then the file it saves and its size. */
function downloadLabel(label: string, fileName: string, size: number): string {
  return `${label} (${fileName}, ${formatBytes(size)})`;
}

/** What a body that stopped part-way had sent, as text; `undefined` when it is not shown as text (binary data, an image). */
function partialText(cause: ResponseBodyError): string | undefined {
  return bodyKindOf(cause.contentType ?? '', cause.bytes) === 'text' ? cause.text ?? new TextDecoder().decode(cause.bytes, { stream: true }) : undefined;
}

/** The rest of a message after its title, starting as a sentence; not a URL, a name or a value it starts with. */
function sentence(text: string): string {
  return /^[a-z]+ /.test(text) ? text[0]!.toUpperCase() + text.slice(1) : text;
}

/** The keys that send, as readers know them: ⌘ on Apple's systems, Ctrl elsewhere. */
function sendShortcut(): string {
  const { platform, userAgentData } = navigator as Navigator & { userAgentData?: { platform: string } };
  return /^(mac|iphone|ipad|ipod)/i.test(userAgentData?.platform || platform) ? '⌘+Enter' : 'Ctrl+Enter';
}

const RESTORE_NOTICES = {
  'truncated-body': 'This request’s body was stored shortened; complete it before sending.',
  credentials: `Credentials were not stored (shown as ${REDACTED}); fill in their values before sending.`,
};

const ERROR_TITLES: Record<RequestError['kind'], string> = {
  cors: 'Blocked by CORS',
  // Not "could not reach": the server may have answered, too slowly, badly or unreadably, or dropped the connection.
  network: 'No response',
  timeout: 'Timed out',
  aborted: 'Cancelled',
  'invalid-url': 'Invalid URL',
  'invalid-request': 'Request not sent',
  'mixed-content': 'Blocked as mixed content',
  csp: 'Blocked by the page’s Content-Security-Policy',
  'unresolved-variables': 'Unresolved variables',
  'proxy-refused': 'Refused by the CORS proxy',
};

/**
 * Proxy codes that break no rule of the proxy's: the API could not be reached or answered badly (titled as the same
 * failure without a proxy), or the proxy failed. The other codes are refusals and keep the kind's title.
 */
const PROXY_REFUSAL_TITLES = new Map<ProxyRefusalCode, string>([
  ['upstream_unreachable', ERROR_TITLES.network],
  ['upstream_timeout', ERROR_TITLES.timeout],
  ['too_many_redirects', 'Too many redirects'],
  ['response_too_large', 'Response too large for the CORS proxy'],
  ['internal_error', 'The CORS proxy failed'],
]);

/**
 * Whether the browser kept headers from the page: read directly from another origin, a response shows only the
 * CORS-safelisted headers and those the API exposes. Through the proxy, every relayed header is exposed; so is every
 * header (`Set-Cookie` aside) of an API that exposes `*`, which the page can then read itself.
 */
function headersHiddenByCors(headers: ConsoleResponse['headers'], request: Pick<PreparedRequest, 'url' | 'viaProxy'>, redirectedTo?: string): boolean {
  // `*` anywhere in the list (`*, X-Trace`) exposes them all.
  if (request.viaProxy || headers.some(([name, value]) => name === 'access-control-expose-headers' && value.split(',').some((item) => item.trim() === '*'))) return false;
  const pageOrigin = globalThis.location?.origin;
  return [request.url, redirectedTo].some((url) => url !== undefined && isCrossOrigin(url, pageOrigin));
}

/**
 * The body's size, said to be decoded when the server compressed it: next to a Content-Length of 10086, `56.4 KB`
 * alone would read as a contradiction.
 */
function bodySize(response: ConsoleResponse): string {
  const size = formatBytes(response.size);
  if (response.size === 0) return size;
  const header = (name: string) => response.headers.find(([headerName]) => headerName === name)?.[1]?.trim();
  const length = header('content-length');
  const sent = length && /^\d+$/.test(length) ? formatBytes(Number(length)) : size;
  if (sent !== size) return `${size} decoded from ${sent}`;
  const encoding = header('content-encoding')?.toLowerCase();
  return encoding && encoding !== 'identity' ? `${size} decoded` : size;
}

function errorTitle(error: RequestError): string {
  const proxyTitle = PROXY_REFUSAL_TITLES.get(error.proxyCode as ProxyRefusalCode);
  if (proxyTitle) return proxyTitle;
  // A response that started and then stopped: the server was reached. Stopped by Cancel, it is just cancelled.
  if (error.cause instanceof ResponseBodyError && error.kind !== 'aborted') return error.kind === 'timeout' ? 'Timed out during the response' : 'Response broke off';
  return ERROR_TITLES[error.kind];
}

/**
 * The key of the history `config` asks for: its settings as checked, and whether the console is on (one turned off
 * keeps its history in memory). Undefined when the settings fail the check, which the engine then explains.
 */
function historyKeyOf(config: ConsoleConfig): string | undefined {
  try {
    return JSON.stringify([parseHistoryConfig(config.history), config.enabled !== false]);
  } catch {
    return undefined;
  }
}

/** Placeholders the request uses that the active environment cannot fill, as `engine.inspect()` tells them. */
interface Unresolved {
  missing: readonly string[];
  cyclic: readonly string[];
}

function configAttributeProblem(value: string): string {
  return `The config attribute is not read (it holds ${describeValue(value)}): set the config property, or put the configuration as JSON in a child <script type="application/json">. A framework writes an object as this attribute when the element is not defined yet as it renders: import 'try-it-console' before the first render.`;
}

/**
 * What is wrong with presets a page set as properties (attributes are always text), or with a request given to
 * `load()` (`source`), or `undefined`.
 */
function presetProblem({ method, url, headers, body }: { method: unknown; url: unknown; headers: unknown; body: unknown }, source = 'property'): string | undefined {
  for (const [name, value] of Object.entries({ method, url, body })) {
    if (typeof value !== 'string') return `The ${name} ${source} must be a string (got ${describeValue(value)}).`;
  }
  if (typeof headers === 'string' && source === 'property') return `The headers attribute or property must be an object of header names and values, or JSON text of one (got ${describeValue(headers)}).`;
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    return `The headers ${source} must be an object of header names and values, e.g. { "Accept": "application/json" } (got ${describeValue(headers)}).`;
  }
  // A Headers or a Map has no own keys: its headers would be dropped without a word.
  if (Symbol.iterator in headers) return `The headers ${source} must be a plain object; for a ${headers.constructor?.name ?? 'Headers or a Map'}, pass Object.fromEntries(headers).`;
  const [name, value] = Object.entries(headers).find(([, value]) => typeof value !== 'string') ?? [];
  return name === undefined ? undefined : `The value of header ${name} in the headers ${source} must be a string${typeof value === 'number' || typeof value === 'boolean' ? `, e.g. "${value}"` : ''} (got ${describeValue(value)}).`;
}
