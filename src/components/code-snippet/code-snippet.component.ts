import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { EnvironmentManager } from '../../core/environment-manager.js';
import { REDACTED } from '../../core/history-config.js';
import { contentTypeOf, isJsonDocument, untypedJsonWarning } from '../../core/json-body.js';
import { SnippetGenerator } from '../../core/snippets/snippet-generator.js';
import type { SnippetLanguage } from '../../core/snippets/snippet-language.js';
import type { SnippetRequest } from '../../core/snippets/snippet-request.js';
import { generateTemplateSnippet } from '../../core/template-snippet.js';
import { setOwnProperty } from '../../core/validation.js';
import { unusableObjectProblem } from '../unusable-object.js';
import { MASK, maskedHeaderValue } from '../env-picker/secret-masking.js';
import { MASK_NAME, withNamedMasks } from '../named-masks.js';
import { LiveAnnouncer } from '../../controllers/live-announcer.js';
import { SubscriptionController } from '../../controllers/subscription-controller.js';
import { TicCopyEvent } from '../../events/copy.js';
import { TicLanguageChangeEvent } from '../../events/language-change.js';
import { highlightStyles } from '../highlight.styles.js';
import { themeStyles } from '../theme.styles.js';
import { codeSnippetStyles } from './code-snippet.styles.js';
import { highlight, type HighlightLanguage } from './highlighter.js';
import { methodOrDefault } from './default-method.js';
import { COPY_FEEDBACK_TIME, COPY_LABELS, copyText } from './copy-text.js';
import { LargeTextThrottle } from './large-text-throttle.js';
import { headersAttribute, headersProperty, textAttribute, wordList, wordListAttribute } from '../attribute-converters.js';

const LABELS: Record<SnippetLanguage, string> = { curl: 'curl', javascript: 'JavaScript', go: 'Go', python: 'Python', php: 'PHP' };
const GRAMMAR: Record<SnippetLanguage, HighlightLanguage> = { curl: 'bash', javascript: 'javascript', go: 'go', python: 'python', php: 'php' };
/** Longer snippets are shown as plain text: highlighting costs about a millisecond per 2 KB, on every keystroke in a large body. */
const HIGHLIGHT_LIMIT = 32 * 1024;
/** While such a snippet changes (typing in a large body), it is laid out again at most this often, in ms. */
const LARGE_SNIPPET_INTERVAL = 250;
/** The Copy button's labels, and the one for code copied with the values that the panel shows as placeholders or masked. */
const SNIPPET_COPY_LABELS = { ...COPY_LABELS, copiedValues: 'Copied with values' };
/** Stands in for a masked secret while a snippet to show is written: letters, which no language escapes. */
const MASK_STAND_IN = 'TICMASKED';
/** A masked secret in highlighted code: shown and copied by hand as its bullets, named for screen readers. */
const NAMED_MASK_HTML = `<span role="img" aria-label="${MASK_NAME}">${MASK}</span>`;

/**
 * The language the reader last picked, by the environments shown with it: the consoles of a docs page share their
 * environments, so a reader who picks Python in one sees Python in all (`at` orders the picks). A snippet alone, or
 * with environments of its own, keeps its own choice.
 */
const pickedLanguages = new WeakMap<EnvironmentManager, { language: SnippetLanguage; at: number }>();
let picks = 0;
/**
 * Where the reader's last pick is kept for the pages of this origin, so a reload or the docs' next page opens on it.
 * Storage may be blocked (a sandboxed frame, cookies off): the pick then lasts as long as the page.
 */
const STORED_LANGUAGE_KEY = 'try-it-console.snippet-language';
function storedLanguage(): string | null | undefined {
  try {
    return localStorage.getItem(STORED_LANGUAGE_KEY);
  } catch {}
}
const connectedSnippets = new Set<CodeSnippet>();
/** What each language's snippet labels a text body without a Content-Type header as (curl -d, PHP's POSTFIELDS: a form). */
const UNTYPED_BODY: Record<SnippetLanguage, string> = {
  curl: 'as form data (application/x-www-form-urlencoded)',
  javascript: 'as text/plain;charset=UTF-8',
  go: 'with no type',
  python: 'with no type',
  php: 'as form data (application/x-www-form-urlencoded)',
};

/**
 * @tagname code-snippet
 * @summary Ready-to-run code for a request, in curl, JavaScript, Go, Python and PHP, with a Copy button.
 *
 * Works alone (`method`, `url`, `headers`, `body` attributes) or fed by `<try-it-console>` (the
 * `request` property). With an `environments` manager it can show `{{variables}}` as written or as values; while
 * they are shown as written, a secret written out in a header (`Authorization: Bearer sk_live_…`) is shown masked, as
 * `<env-picker>` masks it, and Copy still copies it as it is (and says so: Copied with values). A JSON body without a
 * Content-Type header gets a note above the code: the snippet would send it as form data or plain text (unless
 * `hostWarns`). It opens on the language the reader last picked on this origin (kept in `localStorage`), when offered.
 *
 * @fires {TicLanguageChangeEvent} tic-language-change - The user switched to another language tab.
 * @fires {TicCopyEvent} tic-copy - The user copied the snippet.
 *
 * @csspart tabs - The language tab list.
 * @csspart copy-button - The Copy button.
 * @csspart code - The panel holding the code.
 *
 * @cssprop --tic-snippet-max-height - Height past which the code scrolls. Default 24rem.
 */
export class CodeSnippet extends LitElement {
  static override styles = [themeStyles, highlightStyles, codeSnippetStyles];

  readonly #environments = new SubscriptionController<EnvironmentManager>(this, 'resolve', () => (this.#shown = undefined));
  /**
   * The request shown and copied, with what it was made from: as given, and with the environment's values once asked
   * for (shown, or copied). Resolved once per change of those or of the environments, so a `{{$guid}}` keeps its
   * value across renders, tabs and Copy.
   */
  #shown: { inputs: unknown[]; given: SnippetRequest; withValues?: SnippetRequest } | undefined;
  /**
   * The manager and environment whose values the user chose to see with the Show values box. Any other switches the
   * box off again, as `<env-picker>` masks revealed values again on a switch: it must not show another environment's
   * secrets. New values of the same environment stay shown, as asked. A `show-values` set by the page stays as set.
   */
  #valuesShownFor: { manager: EnvironmentManager | undefined; environment: string | undefined } | undefined;
  #ownGenerator: SnippetGenerator | undefined;
  /** Why no generator could be made from `languages`, shown instead of the code. */
  #configProblem: string | undefined;
  /** Why the `generator` property cannot be used, shown instead of the code. */
  #generatorProblem: string | undefined;
  #copyTimer: ReturnType<typeof setTimeout> | undefined;
  /** The code last copied: the button says what copying did only beside that code. */
  #copied: string | undefined;
  readonly #largeSnippet = new LargeTextThrottle(HIGHLIGHT_LIMIT, LARGE_SNIPPET_INTERVAL, () => this.requestUpdate());
  readonly #copyAnnouncer = new LiveAnnouncer(this);
  /** The pick in `pickedLanguages` this snippet follows or made. */
  #pickFollowed: number | undefined;
  /** What had focus in the element before this update: see `updated`. */
  #focusedBefore: Element | null = null;

  @state() private selected: SnippetLanguage | undefined;
  @state() private copyState: keyof typeof SNIPPET_COPY_LABELS = 'ready';

  /** The request to show; when set, it wins over the `method`, `url`, `headers` and `body` attributes. */
  @property({ attribute: false }) request: SnippetRequest | undefined;

  /** Why there is no request to show (a host such as `<try-it-console>` could not make one); shown in place of the code. */
  @property({ attribute: false }) problem: string | undefined;

  /** HTTP method, for use without `request`; empty (`method=""`) is GET. */
  @property({ converter: textAttribute('GET') }) method = 'GET';

  /** Absolute URL, for use without `request`. */
  @property({ converter: textAttribute('') }) url = '';

  /** Headers, for use without `request`; as an attribute, a JSON object (JSON text set as the property is read too). */
  @property({ converter: headersAttribute }) headers: Record<string, string> = {};

  /** Body, for use without `request`. */
  @property({ converter: textAttribute('') }) body = '';

  /**
   * Languages to offer, in order; as an attribute, space-separated (`languages="curl python"`; that text set as the
   * property is read too). Default: all five.
   */
  @property({ converter: wordListAttribute }) languages: string[] | undefined;

  /**
   * The language shown. Set it to show another (a docs page's own language switch sets it on every snippet); one the
   * snippet does not offer leaves it as it is. Set by the page, it is not kept as the reader's pick and fires no event.
   * Read back, it is the language shown, after the reader switched tabs too.
   */
  @property() language: SnippetLanguage | undefined;

  /** A generator to use instead of one made from `languages` (the console passes its own). */
  @property({ attribute: false }) generator: SnippetGenerator | undefined;

  /** Environments for `{{variables}}`; when given, a switch shows them as written or as values. Another kind of value is explained in place. */
  @property({ attribute: false })
  get environments(): EnvironmentManager | undefined {
    return this.#environments.source;
  }
  set environments(manager: EnvironmentManager | undefined) {
    this.#environments.source = manager;
  }

  /**
   * Set by a host that warns about the request itself (`<try-it-console>` does): the note on a JSON body sent without a
   * Content-Type header is then left out here, so it is not said twice.
   */
  @property({ attribute: false }) hostWarns = false;

  /** Show variables with their values from the active environment instead of as `{{placeholders}}`. */
  @property({ type: Boolean, attribute: 'show-values' }) showValues = false;

  /**
   * `light` or `dark`; without it, the element follows the system setting. A `color-scheme` the page sets on the element
   * (`html.dark code-snippet { color-scheme: dark }`, a site's own dark mode) wins over both.
   */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    connectedSnippets.add(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    connectedSnippets.delete(this);
    // Its timer is gone: "Copied" would stay on the button for good once the element is moved. Added back, it
    // renders again (the environments controller asks), which shows a large snippet held back meanwhile.
    this.#resetCopy();
    this.#largeSnippet.stop();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (this.#valuesShownFor) {
      const { manager, environment } = this.#valuesShownFor;
      if (manager !== this.environments || environment !== this.environments?.active()?.name) {
        this.showValues = false;
        this.#valuesShownFor = undefined;
      }
    }
    if (changed.has('languages')) {
      this.#configProblem = undefined;
      try {
        this.#ownGenerator = new SnippetGenerator({ languages: wordList(this.languages) as SnippetLanguage[] | undefined });
      } catch (error) {
        this.#ownGenerator = new SnippetGenerator({ languages: [] });
        this.#configProblem = (error as Error).message;
      }
    }
    if (changed.has('generator')) {
      this.#generatorProblem = unusableObjectProblem<SnippetGenerator>(this.generator, 'generator', 'SnippetGenerator', ['languages', 'generate'], (generator) => generator.languages());
    }
    const available = this.#generator().languages();
    // The reader's pick in another snippet of these environments, followed once; this snippet's own picks are newer.
    const picked = this.environments && pickedLanguages.get(this.environments);
    let wanted: SnippetLanguage | undefined;
    if (picked && picked.at !== this.#pickFollowed && available.includes(picked.language)) {
      this.#pickFollowed = picked.at;
      wanted = picked.language;
    }
    // The page's own choice, newer than any pick when just set.
    if (changed.has('language') && available.includes(this.language!)) wanted = this.language;
    if (wanted && wanted !== this.selected) {
      this.selected = wanted;
      this.#resetCopy();
      this.#largeSnippet.release();
    }
    if (!this.selected || !available.includes(this.selected)) {
      const stored = storedLanguage();
      this.selected = available.find((language) => language === stored) ?? available[0];
      // Another language's snippet, shown at once as on a tab switch: a large one held back was the other language's.
      this.#largeSnippet.release();
    }
    // Read back, `language` is the one shown: after the reader's pick too, and in place of one not offered.
    this.language = this.selected;
    this.#focusedBefore = (this.renderRoot as ShadowRoot).activeElement;
  }

  // Focus stays with the selected tab when arrows select another, or when its button goes or now stands for
  // another language: never on <body>, nor on a tab out of the Tab order. A Copy button disabled under it (the request
  // can no longer be written) or a Show values box gone (no environment active) hands it to the code panel, which says why.
  protected override updated(): void {
    const before = this.#focusedBefore;
    if (before?.role === 'tab') this.renderRoot.querySelector<HTMLElement>('[aria-selected=true]')?.focus();
    else if (before && (!before.isConnected || (before as HTMLButtonElement).disabled)) this.renderRoot.querySelector<HTMLElement>('[role=tabpanel]')?.focus();
  }

  #generator(): SnippetGenerator {
    this.#ownGenerator ??= new SnippetGenerator();
    return (!this.#generatorProblem && this.generator) || this.#ownGenerator;
  }

  #onTabClick(language: SnippetLanguage): void {
    this.#select(language);
  }

  #onTabKeydown(event: KeyboardEvent): void {
    // With a modifier the keys are the browser's (Alt+Left goes back).
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const languages = this.#generator().languages();
    const index = languages.indexOf(this.selected!);
    // The arrows follow the tabs' visual order: right to left, the next tab is on the left.
    const step = getComputedStyle(event.target as Element).direction === 'rtl' ? -1 : 1;
    const next = { ArrowRight: index + step, ArrowLeft: index - step, Home: 0, End: languages.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    this.#select(languages[(next + languages.length) % languages.length]!);
  }

  #select(language: SnippetLanguage): void {
    if (language === this.selected) return;
    this.selected = language;
    try {
      localStorage.setItem(STORED_LANGUAGE_KEY, language);
    } catch {}
    const environments = this.environments;
    if (environments) {
      this.#pickFollowed = ++picks;
      pickedLanguages.set(environments, { language, at: picks });
      for (const other of connectedSnippets) if (other.environments === environments && other !== this) other.requestUpdate();
    }
    // What was copied, and a large snippet held back, were the other language's.
    this.#resetCopy();
    this.#largeSnippet.release();
    this.dispatchEvent(new TicLanguageChangeEvent(language));
  }

  #resetCopy(): void {
    clearTimeout(this.#copyTimer);
    this.copyState = 'ready';
    this.#copyAnnouncer.clear();
  }

  #onShowValuesChange(event: Event): void {
    this.showValues = (event.target as HTMLInputElement).checked;
    this.#valuesShownFor = this.showValues ? { manager: this.environments, environment: this.environments?.active()?.name } : undefined;
  }

  async #onCopy(): Promise<void> {
    // As it runs, values and secrets and all; the code shown may have them as placeholders or masked.
    const { code: withValues, problem } = this.#snippet(true);
    const { code: shown } = this.#snippet();
    // Shown with its placeholders, the request may still fail once its values are filled in (past the growth cap):
    // it is copied with its placeholders then, and why said; but with its secrets as written, as bullets do not run.
    const code = withValues ?? (shown === undefined ? undefined : this.#snippet(false, false).code);
    if (code === undefined) return;
    // Said on the button too, not only aloud: what lands in the clipboard (a key, a base URL) is not what is shown.
    const withHiddenValues = code !== shown;
    const how =
      withValues === undefined
        ? `, with its placeholders${withHiddenValues ? ' and the secrets hidden here' : ''} (the values could not be filled in: ${problem})`
        : withHiddenValues
          ? ' with values, which are hidden here'
          : '';
    const language = this.selected!;
    // Where copying is refused, the code shown is selected instead: the latest, not a held-back one, and only while it is
    // the code copied (another tab or request may have taken its place while the clipboard answered; masked, it is not).
    this.#largeSnippet.release();
    this.requestUpdate();
    let selected = false;
    const copied = await copyText(code, async () => {
      await this.updateComplete;
      const pre = this.renderRoot.querySelector('pre');
      selected = pre?.textContent === code;
      return selected ? pre : null;
    });
    // Removed while the clipboard answered: nobody sees the button or hears the region, and a feedback timer set now
    // would outlive the element (disconnectedCallback has run).
    if (this.isConnected) {
      // The tab or the request may have changed while the clipboard answered: what is said is about the snippet
      // copied, and the button says it only while that one is shown (see render).
      this.#copied = shown;
      this.copyState = !copied ? 'blocked' : withHiddenValues ? 'copiedValues' : 'copied';
      clearTimeout(this.#copyTimer);
      this.#copyTimer = setTimeout(() => this.#resetCopy(), COPY_FEEDBACK_TIME);
      this.#copyAnnouncer.announce(
        copied
          ? `Copied the ${LABELS[language]} snippet${how}.`
          : selected
            ? 'Copy is blocked here: the code is selected, press Ctrl+C (or Cmd+C) to copy it.'
            : // The code shown hides what runs: with the values shown, Copy can select it.
              withHiddenValues && !this.showValues && this.environments?.active()
              ? 'Copy is blocked here, and the code shown hides values: turn on Show values, then Copy selects the code to copy with Ctrl+C (or Cmd+C).'
              : 'Copy is blocked here.',
      );
    }
    if (copied) this.dispatchEvent(new TicCopyEvent(language, code));
  }

  /**
   * The request as given, or with the active environment's values (`values`: shown, or copied, since a snippet with
   * `{{placeholders}}` does not run): the last one again while its inputs and the environments are unchanged.
   */
  #request(values = this.showValues): SnippetRequest {
    const inputs = [this.request, this.method, this.url, this.headers, this.body, this.environments, this.showValues];
    if (!this.#shown || inputs.some((input, index) => input !== this.#shown!.inputs[index])) {
      // Unset by a framework (undefined, null, an empty method): the defaults, as a removed attribute gives.
      const given = this.request ?? { method: methodOrDefault(this.method), url: this.url ?? '', headers: headersProperty(this.headers ?? {}) as Record<string, string>, body: this.body ?? '' };
      this.#shown = { inputs, given };
    }
    const shown = this.#shown;
    return values && this.environments ? (shown.withValues ??= this.#withValues(shown.given, this.environments)) : shown.given;
  }

  /** `request` with the active environment's values; variables it lacks stay as written. */
  #withValues(request: SnippetRequest, manager: EnvironmentManager): SnippetRequest {
    const resolve = (text: string) => manager.resolve(text);
    let headers = request.headers;
    // Anything but a plain object (a Headers, a Map) goes to the generator as given, which refuses it with the fix.
    if (typeof headers === 'object' && headers !== null && !(Symbol.iterator in headers)) {
      // As a send resolves them: the name trimmed, and two names that resolve to one refused rather than merged.
      const resolved: Record<string, string> = {};
      const seen = new Set<string>();
      for (const [name, value] of Object.entries(headers)) {
        const resolvedName = resolve(name).trim();
        if (seen.has(resolvedName.toLowerCase())) {
          throw new Error(`the header ${resolvedName} appears twice once its variables are resolved (names ignore case); merge the values into one row, or switch one off`);
        }
        seen.add(resolvedName.toLowerCase());
        setOwnProperty(resolved, resolvedName, typeof value === 'string' ? resolve(value) : value);
      }
      headers = resolved;
    }
    return { method: request.method, url: resolve(request.url), headers, body: request.body === undefined ? undefined : resolve(request.body) };
  }

  /**
   * The snippet, or why there is none: by default as the panel shows it, its header secrets masked while values are
   * hidden; `values`, with the active environment's values (as copied); `masked`, with secrets written out in header
   * values masked. `namedMasks`: every mask in `code` stands for a secret (the request holds no bullets of its own).
   */
  #snippet(values = this.showValues, masked = !values): { code?: string; problem?: string; namedMasks?: boolean } {
    if (!this.selected) return { problem: 'No snippet languages are enabled.' };
    if (this.problem) return { problem: `No snippet for this request: ${this.problem}` };
    const wrong = this.#environments.problem('The environments property must be an EnvironmentManager');
    if (wrong) return { problem: wrong };
    let request: SnippetRequest | undefined;
    try {
      // Resolving may throw too: two header names that resolve to one.
      request = this.#request(values);
      const hidden = masked ? this.#withSecretsMasked(request) : undefined;
      const code = generateTemplateSnippet(this.#generator(), hidden?.request ?? request, this.selected);
      return hidden ? { code: code.replaceAll(hidden.standIn, MASK), namedMasks: !hidden.ownBullets } : { code };
    } catch (error) {
      // A request loaded from history: its "[" is refused as a character to percent-encode, which is not the fix.
      const redacted = (error as { argument?: unknown }).argument === 'request.url' && request!.url.includes(REDACTED);
      return { problem: `No snippet for this request: ${redacted ? `${REDACTED} in the URL stands for a credential history did not keep; type its value in its place.` : (error as Error).message}` };
    }
  }

  /**
   * While values are hidden, `request` with the secrets written out in its header values (a default header's
   * `Bearer sk_live_…`) masked, as the console's list of default headers masks them: by a stand-in, found nowhere in
   * the request, to be replaced by the mask in the snippet. Undefined when nothing is to mask. `ownBullets`: the request
   * holds the mask's bullet itself, so not every mask in the snippet is a secret.
   */
  #withSecretsMasked(request: SnippetRequest): { request: SnippetRequest; standIn: string; ownBullets: boolean } | undefined {
    // Another kind of headers (a Map) is refused by the generator, with the fix.
    if (!this.environments || this.showValues || typeof request.headers !== 'object' || request.headers === null) return undefined;
    const entries = Object.entries(request.headers).map(([name, value]) => [name, value, typeof value === 'string' ? maskedHeaderValue(name, value) : undefined] as const);
    if (entries.every(([, , hidden]) => hidden === undefined)) return undefined;
    let standIn = MASK_STAND_IN;
    const texts = [request.url, request.body, ...entries.flatMap(([name, value]) => [name, value])];
    while (texts.some((text) => typeof text === 'string' && text.includes(standIn))) standIn += 'X';
    const headers: Record<string, string> = {};
    for (const [name, value, hidden] of entries) setOwnProperty(headers, name, hidden?.replaceAll(MASK, standIn) ?? value);
    const ownBullets = texts.some((text) => typeof text === 'string' && text.includes(MASK[0]!));
    return { request: { ...request, headers }, standIn, ownBullets };
  }

  /** The note on a JSON body without Content-Type, which the snippet would send as form data or plain text. */
  #untypedJsonNote() {
    const { headers, body } = this.#request();
    if (this.hostWarns || typeof body !== 'string' || !isJsonDocument(body) || contentTypeOf(headers ?? {}) !== undefined) return nothing;
    return html`<p class="notice" role="note">${untypedJsonWarning(`this snippet sends it ${UNTYPED_BODY[this.selected!]}`)}</p>`;
  }

  /** `code` highlighted, its masks named for screen readers when `nameMasks` (a mask lies inside one string token). */
  #highlighted(code: string, nameMasks: boolean | undefined): string {
    const highlighted = highlight(code, GRAMMAR[this.selected!]);
    return nameMasks ? highlighted.replaceAll(MASK, NAMED_MASK_HTML) : highlighted;
  }

  override render() {
    // Bad `languages` or `generator`: the problem alone, as the console shows its own configuration problems, with
    // no tabs to pick.
    const setupProblem = this.#generatorProblem ?? (this.generator ? undefined : this.#configProblem);
    if (setupProblem) return html`<div class="frame"><p class="problem" role="alert">${setupProblem}</p></div>`;
    const languages = this.#generator().languages();
    const { code: latest, problem, namedMasks } = this.#snippet();
    const code = this.#largeSnippet.pick(latest);
    // A held-back large snippet is an earlier request's, which may hold bullets of its own.
    const nameMasks = namedMasks && code === latest;
    // Beside other code (the request changed, or the languages), "Copied" would claim what the clipboard does not hold.
    const copyState = code === this.#copied ? this.copyState : 'ready';
    return html`
      <div class="frame">
        <div class="bar">
          <div role="tablist" aria-label="Snippet language" part="tabs">
            ${languages.map(
              (language) => html`<button
                role="tab"
                id="tab-${language}"
                aria-selected=${language === this.selected ? 'true' : 'false'}
                aria-controls="panel"
                tabindex=${language === this.selected ? 0 : -1}
                @click=${() => this.#onTabClick(language)}
                @keydown=${this.#onTabKeydown}
              >
                ${LABELS[language]}
              </button>`,
            )}
          </div>
          <div class="tools">
            ${this.environments?.active() // No environment, no values to show.
              ? html`<label><input type="checkbox" .checked=${this.showValues} @change=${this.#onShowValuesChange} /> Show values</label>`
              : nothing}
            <button part="copy-button" class="copy" ?disabled=${code === undefined} @click=${this.#onCopy}>
              ${Object.entries(SNIPPET_COPY_LABELS).map(([state, label]) =>
                // Only where values can be filled in: alone, the button keeps the width of its usual labels.
                state === 'copiedValues' && copyState !== state && !this.environments?.active() ? nothing : html`<span class=${state === copyState ? 'shown' : ''}>${label}</span>`,
              )}
            </button>
          </div>
        </div>
        ${code === undefined ? nothing : this.#untypedJsonNote()}
        <div role="tabpanel" id="panel" aria-labelledby="tab-${this.selected}" tabindex="0" part="code">
          ${code === undefined
            ? html`<p class="problem">${problem}</p>`
            : code.length > HIGHLIGHT_LIMIT
              ? html`<pre><code>${nameMasks ? withNamedMasks(code, '') : code}</code></pre>`
              : html`<pre><code>${unsafeHTML(this.#highlighted(code, nameMasks))}</code></pre>`}
        </div>
        <div class="visually-hidden" role="status" aria-live="polite">${this.#copyAnnouncer.text}</div>
      </div>
    `;
  }
}
