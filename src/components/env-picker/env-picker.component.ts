import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import type { EnvironmentManager } from '../../core/environment-manager.js';
import { variableNameProblem } from '../../core/environment.js';
import { InvalidArgumentError } from '../../core/errors.js';
import { LiveAnnouncer } from '../../controllers/live-announcer.js';
import { SubscriptionController } from '../../controllers/subscription-controller.js';
import { TicEnvironmentChangeEvent } from '../../events/environment-change.js';
import { TicVariableChangeEvent } from '../../events/variable-change.js';
import { ariaLevel } from '../attribute-converters.js';
import { panelStyles } from '../panel.styles.js';
import { themeStyles } from '../theme.styles.js';
import { envPickerStyles } from './env-picker.styles.js';
import { speltAlike } from '../../core/unresolved-explanation.js';
import { noteReaderSecret } from './reader-secrets.js';
import { MASK, maskedValue } from './secret-masking.js';
import { withNamedMasks } from '../named-masks.js';

/**
 * @tagname env-picker
 * @summary Switches between named environments and shows the active one's variables.
 *
 * Values that look secret are masked until revealed: those of names like token, key or password, well-known
 * credentials (a JWT, `sk_live_…`, `ghp_…`, `AKIA…`, a PEM private key) under any name, in a URL its user info
 * and credential parameters (`api_key=…`), and in a connection string its `Password=…` or `AccountKey=…`. Given
 * `missing` and `cyclic`, it tells which variables the current request uses that the active environment lacks (and the
 * one likely meant, for a name spelt as one it has: `petId` for `pet_id`), or cannot resolve. Unless `readonly`, the
 * reader can set a value (their own API key, say) with Edit, or give one to a variable the request lacks with Set: it
 * goes into the active environment of the manager, so every console sharing it sends with it. A one-line field says
 * Enter sets it; a value with line breaks (a PEM key) is edited in a multi-line field, where Enter starts a new line
 * and Ctrl or Cmd+Enter sets it (masked, it starts empty: what is typed replaces it). Values set so last as long as the
 * manager; they are not stored.
 *
 * @fires {TicEnvironmentChangeEvent} tic-environment-change - The user selected another environment.
 * @fires {TicVariableChangeEvent} tic-variable-change - The user set a variable's value in the active environment.
 *
 * @csspart select - The environment select.
 * @csspart variables - The table of variables.
 * @csspart missing - The notice of missing and unresolvable variables.
 */
export class EnvPicker extends LitElement {
  static override styles = [themeStyles, panelStyles, envPickerStyles];

  readonly #manager = new SubscriptionController<EnvironmentManager>(this, 'resolve');
  /** The manager and active environment that the revealed values belong to. */
  #revealedIn: { manager: EnvironmentManager | undefined; environment: string | undefined } = { manager: undefined, environment: undefined };
  /** Each variable's masked value and the value it was worked out from: the console renders this on every keystroke. */
  #masks = new Map<string, { value: string; masked: string | undefined }>();
  /** What had focus in the element as an update began. */
  #focused: HTMLElement | undefined;
  /** An update is putting its rendering in the page: a field it moves along with its row loses focus, not the reader. */
  #committing = false;
  /** Says that a value was set: focus goes back to Edit, whose name says nothing of it. */
  readonly #announcer = new LiveAnnouncer(this);
  /** Where focus goes once the update that ends an edit by (Ctrl+)Enter or Escape is done: the variable's Edit or Set button. */
  #focusAfterEdit: string | undefined;
  /** An edit just began: its field takes focus, its text selected, once it is there. */
  #editStarted = false;
  /**
   * The text of an edit moved to a multi-line field by a paste with line breaks, which the one-line field would drop,
   * and where the caret goes in it; undefined otherwise (the field starts from the value).
   */
  #pasted: { text: string; caret: number } | undefined;
  /**
   * The value the field started from. Bound instead of the manager's: a change made meanwhile (another picker, the
   * page) would replace what the reader is typing.
   */
  #editFrom = '';
  /**
   * The field starts empty, what is typed replacing the value: a masked value with line breaks. Its text area, hidden
   * only by CSS, would give the secret to screen readers (a one-line field is a password field, which gives nothing).
   */
  #editBlank = false;

  /** Values the user chose to see, by variable name: a value since replaced is masked again. */
  @state() private revealed = new Map<string, string>();
  /** The variable whose value is being edited (or set, for one the request lacks). */
  @state() private editing: string | undefined;

  /** The environments to pick from; another kind of value (a list of environments) is explained in place. */
  @property({ attribute: false })
  get manager(): EnvironmentManager | undefined {
    return this.#manager.source;
  }
  set manager(manager: EnvironmentManager | undefined) {
    this.#manager.source = manager;
  }

  /** Variables the current request uses that the active environment does not define (`''`: an empty `{{}}`). */
  @property({ attribute: false }) missing: readonly string[] = [];

  /** Variables the current request uses whose values refer back to themselves, or nest more than 10 levels deep. */
  @property({ attribute: false }) cyclic: readonly string[] = [];

  /** Hide the table of variables. */
  @property({ type: Boolean, attribute: 'hide-variables' }) hideVariables = false;

  /** Offer no Edit or Set: the values are the configuration's alone. */
  @property({ type: Boolean }) readonly = false;

  /**
   * `light` or `dark`; without it, the element follows the system setting. A `color-scheme` the page sets on the element
   * (`html.dark env-picker { color-scheme: dark }`, a site's own dark mode) wins over both.
   */
  @property({ reflect: true }) theme: 'light' | 'dark' | undefined;

  /** The level of the Environment heading, 1 to 6 (2 when left out or another value), to fit the page's outline. */
  @property({ attribute: 'heading-level' }) headingLevel: number | string | undefined;

  // Another environment or manager, whoever switched to it (this picker, another element, the page's code, a
  // console given a new configuration), masks everything again: a value revealed under one name in the old one
  // must not show the new one's secret of that name.
  override willUpdate(): void {
    this.#focused = (this.shadowRoot?.activeElement as HTMLElement | null) ?? undefined;
    const manager = this.manager;
    const environment = manager?.active()?.name;
    const editing = this.editing;
    if (manager !== this.#revealedIn.manager || environment !== this.#revealedIn.environment) {
      this.#revealedIn = { manager, environment };
      this.revealed = new Map();
      this.#masks = new Map();
      this.editing = undefined; // an edit begun in another environment would set the value in this one
    }
    // Made readonly meanwhile (by the page, once the reader signed in, say): the open field would still set a value.
    if (this.readonly) this.editing = undefined;
    // Closed under the reader's fingers: focus goes to the heading (see updated), which says nothing of why.
    if (editing !== undefined && this.editing === undefined) {
      this.#announcer.announce(`${editing} was not set: ${this.readonly ? 'values are read-only now' : `“${environment}” is active now`}.`);
    }
  }

  override update(changed: PropertyValues): void {
    this.#committing = true;
    try {
      super.update(changed);
    } finally {
      this.#committing = false;
    }
  }

  // A Show button goes with its variable when another environment becomes active or a value changes, wherever that
  // happened: focus goes to the select, which says which environment is active now, rather than to the page. A field
  // closed so (or made readonly) sends it to the heading instead: the reader typing on would pick another environment
  // in the select by its first letter. What was only moved (a row put elsewhere: the variable being edited removed or
  // renamed elsewhere, the variables reordered) keeps it, for the same reason.
  override updated(): void {
    const field = this.#editStarted ? this.renderRoot.querySelector<HTMLInputElement | HTMLTextAreaElement>('.value-input') : null;
    this.#editStarted = false;
    const edited = this.#focusAfterEdit;
    this.#focusAfterEdit = undefined;
    // Its Edit button, or the Set button pressed when a variable the request lacks was left without a value. Edit first:
    // a variable just given a value by Set has one, and its Set button goes once the console passes the new `missing`.
    const buttons = [...this.renderRoot.querySelectorAll<HTMLElement>('button.edit'), ...this.renderRoot.querySelectorAll<HTMLElement>('button.set')];
    const editButton = edited === undefined ? undefined : buttons.find((button) => button.dataset.name === edited);
    const pasted = this.#pasted;
    if (field) {
      field.focus();
      if (pasted) field.setSelectionRange(pasted.caret, pasted.caret);
      else field.select();
    } else if (editButton) editButton.focus();
    else if (this.#focused && !this.shadowRoot!.activeElement) {
      (this.#focused.isConnected ? this.#focused : this.renderRoot.querySelector<HTMLElement>(this.#focused.matches('.value-input') ? 'h2' : 'select'))?.focus();
    }
  }

  #edit(name: string): void {
    const variables = this.manager?.active()?.variables ?? {};
    // Own values only: `constructor` or `toString` is no variable until set.
    const from = (this.#editFrom = Object.hasOwn(variables, name) ? variables[name]! : '');
    this.#editBlank = /[\r\n]/.test(from) && this.#maskedValue(name, from) !== undefined && this.revealed.get(name) !== from;
    this.#pasted = undefined;
    this.editing = name;
    this.#editStarted = true;
  }

  /**
   * Ends the edit of `name`; with a `typed` value, sets it in the active environment first. A variable the request lacks
   * left empty stays undefined: sent empty, it would no longer be named as missing. `refocus`: the field had focus to
   * the end (Enter, Escape), so focus goes back to the variable's button; left for elsewhere, it stays there.
   */
  #endEdit(name: string, typed: string | undefined, refocus: boolean): void {
    if (this.editing !== name) return; // already ended (Enter, then the blur of the input going away)
    this.editing = undefined;
    if (refocus) this.#focusAfterEdit = name;
    const active = this.manager?.active();
    // A text area gives every line break as \n: a value written with \r\n (a key saved on Windows) keeps its own.
    const value = this.#editFrom.includes('\r\n') ? typed?.replace(/\r?\n/g, '\r\n') : typed;
    // Left as it started, nothing is set: a value another picker set meanwhile stays.
    const unchanged = typed === (this.#editBlank ? '' : this.#editFrom.replace(/\r\n?/g, '\n'));
    if (!active || value === undefined || unchanged || (Object.hasOwn(active.variables, name) && active.variables[name] === value)) return;
    this.manager!.add({ name: active.name, variables: { ...active.variables, [name]: value } });
    // Masked whole here, so kept out of history too, wherever the request puts it (a URL's credentials are already).
    if (maskedValue(name, value) === MASK) noteReaderSecret(this.manager!, value);
    this.dispatchEvent(new TicVariableChangeEvent(active.name, name));
    // The name alone: the value may be a secret.
    this.#announcer.announce(`${name} set in “${active.name}”.`);
  }

  #onEditBlur(event: FocusEvent, name: string): void {
    // Still the active element: the window lost focus (the reader went to copy their key), not the field. Or the
    // one-line field going away for a multi-line one after a paste: the edit goes on there. Or moved with its row by an
    // update (put back once it is done), not removed.
    if (this.shadowRoot!.activeElement === event.target || this.#editStarted || (this.#committing && (event.target as Element).isConnected)) return;
    this.#endEdit(name, (event.target as HTMLInputElement).value, false);
  }

  #onEditKeydown(event: KeyboardEvent, name: string): void {
    const field = event.target as HTMLInputElement | HTMLTextAreaElement;
    // In a multi-line field Enter starts a new line, and Ctrl or Cmd+Enter sets the value.
    const sets = event.key === 'Enter' && (field.localName === 'input' || event.ctrlKey || event.metaKey);
    // Enter that ends an input method's composition (Japanese, Chinese) is the IME's.
    if ((!sets && event.key !== 'Escape') || event.isComposing) return;
    // Focus is back on Edit before the key's keypress, which would press Edit again. Ctrl+Enter goes on to the
    // console, which sends with the value just set; Escape ends here, or a dialog around the console would close too.
    event.preventDefault();
    if (event.key === 'Escape') event.stopPropagation();
    this.#endEdit(name, sets ? field.value : undefined, true);
  }

  // A value pasted with line breaks (a PEM key) into a one-line field would lose them: the edit goes on in a multi-line
  // field, holding what was typed with the paste in place of the selection. Breaks only at its end (a key copied with
  // its line) are no value's: the field drops them, and stays one where Enter sets it.
  #onEditPaste(event: ClipboardEvent): void {
    const text = event.clipboardData?.getData('text/plain') ?? '';
    const field = event.target as HTMLInputElement;
    if (field.localName !== 'input' || !/[\r\n][^\r\n]/.test(text)) return;
    event.preventDefault();
    const start = field.selectionStart ?? field.value.length;
    this.#pasted = { text: field.value.slice(0, start) + text + field.value.slice(field.selectionEnd ?? start), caret: start + text.length };
    this.#editStarted = true;
    this.requestUpdate();
  }

  #onChange(event: Event): void {
    const name = (event.target as HTMLSelectElement).value;
    this.manager?.setActive(name);
    this.dispatchEvent(new TicEnvironmentChangeEvent(name));
  }

  #toggle(name: string, value: string, shown: boolean): void {
    const revealed = new Map(this.revealed);
    if (shown) revealed.delete(name);
    else revealed.set(name, value);
    this.revealed = revealed;
  }

  #maskedValue(name: string, value: string): string | undefined {
    const cached = this.#masks.get(name);
    if (cached?.value === value) return cached.masked;
    const masked = maskedValue(name, value);
    this.#masks.set(name, { value, masked });
    return masked;
  }

  /**
   * Opens the field that sets `name` in the active environment, with focus in it (which scrolls it into view): for a
   * page, or the console's Set button beside a response sent with `{{name}}` as written, to take the reader there.
   * Nothing happens when `readonly`, with `hide-variables` (no field is shown) or without an active environment.
   * @throws InvalidArgumentError when `name` is no variable's: not a string, empty, or with braces.
   */
  editVariable(name: string): void {
    // Refused now, not as the value is set: a name no variable can have (an empty one, say).
    const problem = variableNameProblem(name);
    if (problem) throw new InvalidArgumentError('name', name, `pass the name of a variable, such as "api_key": ${problem}`);
    if (!this.readonly && !this.hideVariables && this.manager?.active()) this.#edit(name);
  }

  #renderVariables(variables: Record<string, string>) {
    const names = Object.keys(variables);
    // A variable the request lacks, being set: a row of its own until it has a value.
    if (this.editing !== undefined && !Object.hasOwn(variables, this.editing)) names.push(this.editing);
    if (names.length === 0) return html`<p class="muted">This environment has no variables.</p>`;
    return html`<table part="variables">
      <caption class="visually-hidden">Variables of the active environment</caption>
      <thead><tr><th scope="col">Variable</th><th scope="col">Value</th></tr></thead>
      <tbody>
        ${repeat(names, (name) => name, (name) => {
          // Keyed: a row added above the one being edited (another picker's Set) must not replace its field.
          const value = this.editing === name ? (this.#pasted?.text ?? this.#editFrom) : Object.hasOwn(variables, name) ? variables[name]! : '';
          const masked = this.#maskedValue(name, value);
          const shown = masked === undefined || this.revealed.get(name) === value;
          // Typed unseen where the value would be masked (a new one too, under a secret-looking name). dir="auto": a URL
          // or a key reads left to right on a right-to-left page, as the value shown does.
          if (this.editing === name) {
            const keydown = (event: KeyboardEvent) => this.#onEditKeydown(event, name);
            const blur = (event: FocusEvent) => this.#onEditBlur(event, name);
            // A value with line breaks (a PEM key, JSON) gets a field that keeps them; a one-line field drops them.
            const lines = value.split(/\r\n?|\n/).length;
            return html`<tr>
              <th scope="row" class="name">${name}</th>
              <td class="value">
                ${lines > 1
                  ? html`<textarea class="value-input ${shown ? '' : 'masked'}" rows=${Math.min(lines, 10)} dir="auto" aria-label="Value of ${name}" aria-describedby="edit-hint"
                        .value=${this.#editBlank ? '' : value} spellcheck="false" autocomplete="off" @keydown=${keydown} @blur=${blur}></textarea>
                      <span class="muted hint" id="edit-hint">${this.#editBlank ? 'The current value stays hidden: what you type or paste replaces it; left empty, it is kept. ' : ''}Ctrl+Enter or ⌘+Enter sets it (and, in a console, sends the request); Escape cancels.</span>`
                  : html`<input class="value-input" type=${shown ? 'text' : 'password'} dir="auto" aria-label="Value of ${name}" aria-describedby="edit-hint" .value=${value} spellcheck="false"
                        autocomplete="off" @keydown=${keydown} @blur=${blur} @paste=${this.#onEditPaste} />
                      <span class="muted hint" id="edit-hint">Enter sets it; Escape cancels.</span>`}
              </td>
            </tr>`;
          }
          // Nothing to hide in an empty value: masked, a key left for the reader to set looked set. White space alone
          // is said so: shown as it is, it looked empty, and screen readers said nothing.
          const hidden = value === '' ? undefined : masked;
          // A toggle: one label, its state in aria-pressed (a label that changed too said "Hide…, pressed").
          return html`<tr>
            <th scope="row" class="name">${name}</th>
            <td class="value">
              <span class="text">${hidden === undefined || shown ? (value.trim() ? breakable(value) : html`<span class="muted">${value ? '(white space only)' : '(empty)'}</span>`) : breakable(hidden, value)}</span>
              ${hidden !== undefined
                ? html`<button aria-pressed=${shown ? 'true' : 'false'} aria-label="Show the value of ${name}" @click=${() => this.#toggle(name, value, shown)}>Show</button>`
                : nothing}
              ${this.readonly ? nothing : html`<button class="edit" data-name=${name} aria-label="Edit the value of ${name}" @click=${() => this.#edit(name)}>Edit</button>`}
            </td>
          </tr>`;
        })}
      </tbody>
    </table>`;
  }

  /** What the request uses that `environment` cannot fill: undefined names, values that loop, an empty `{{}}`. */
  #renderUnresolved(environment: string) {
    // Null or undefined from a framework's binding: nothing to tell.
    const missing = this.missing ?? [];
    const undefinedNames = missing.filter((name) => name !== '');
    // A `$` name is a dynamic variable's (`$randomEmail`, one we lack), never set: the console offers no Set either.
    const settable = undefinedNames.filter((name) => !name.startsWith('$'));
    const empty = missing.includes('');
    const cyclic = this.cyclic ?? [];
    if (undefinedNames.length === 0 && !empty && cyclic.length === 0) return nothing;
    const placeholders = (names: readonly string[]) => names.map((name, i) => html`${i > 0 ? ', ' : ''}<code>{{${name}}}</code>`);
    const one = cyclic.length === 1;
    // A name spelt as one the environment has (`petId` for `pet_id`): the likely fix, before the request is sent.
    const meant = (name: string, near = speltAlike(name, this.manager!.active())) =>
      near === undefined ? nothing : html` Did you mean <code>{{${near}}}</code>${undefinedNames.length > 1 ? html` for <code>{{${name}}}</code>` : nothing}?`;
    return html`<p class="missing" part="missing" role="note">
      ${undefinedNames.length > 0 ? html`This request uses ${placeholders(undefinedNames)}, which “${environment}” does not define.${undefinedNames.map((name) => meant(name))}` : nothing}
      ${cyclic.length > 0
        ? html`In “${environment}”, ${placeholders(cyclic)} ${one ? 'refers' : 'refer'} back to ${one ? 'itself' : 'themselves'} through
            ${one ? 'its value' : 'their values'}, or ${one ? 'nests' : 'nest'} more than 10 levels deep; change ${one ? 'that value' : 'those values'}
            to end in plain text.`
        : nothing}
      ${empty ? html`It has an empty <code>{{}}</code>, which names no variable.` : nothing}
    </p>
    ${settable.length > 0 && !this.readonly && !this.hideVariables
      ? html`<p class="set-missing">${settable.map((name) => html`<button class="set" data-name=${name} @click=${() => this.#edit(name)}>Set ${name}</button>`)}</p>`
      : nothing}`;
  }

  override render() {
    const problem = this.#manager.problem('The manager property must be an EnvironmentManager');
    if (problem) return html`<p class="problem" role="alert">${problem}</p>`;
    // None yet (a framework sets it after the first render): "No environments are configured" would be wrong.
    if (!this.manager) return nothing;
    const environments = this.manager.list();
    const active = this.manager.active();
    // A heading, as the history's is, so heading navigation finds the panel; its label still names the select.
    const level = ariaLevel(this.headingLevel);
    if (!active) return html`<h2 aria-level=${level} tabindex="-1">Environment</h2><p class="muted">No environments are configured.</p>`;
    // `.selected` with live(): once the user has picked an option, its `selected` attribute no longer decides.
    return html`
      <div class="visually-hidden" role="status" aria-live="polite">${this.#announcer.text}</div>
      <div class="picker">
        <h2 aria-level=${level} tabindex="-1"><label for="environment">Environment</label></h2>
        <select id="environment" part="select" @change=${this.#onChange}>
          ${environments.map((environment) => html`<option value=${environment.name} .selected=${live(environment.name === active.name)}>${environment.name}</option>`)}
        </select>
      </div>
      ${this.#renderUnresolved(active.name)}
      ${this.hideVariables ? nothing : this.#renderVariables(active.variables)}
    `;
  }
}

/**
 * `text` with line-break opportunities after each `/` (not inside `//`) and before `:`, `.`, `?` and `&`: a URL breaks
 * there rather than mid-port (`:4615` / `3`). Short values only; a long one breaks where it must. Each `<wbr>` is
 * hidden from assistive technology: Chromium put a space in the cell's name at each. `text` masked from `maskedFrom`:
 * its masks are named for screen readers (see withNamedMasks); a mask holds no place to break.
 */
function breakable(text: string, maskedFrom?: string) {
  const named = (part: string) => (maskedFrom === undefined ? part : withNamedMasks(part, maskedFrom));
  return text.length > 300 ? named(text) : text.split(/(?<=\/)(?!\/)|(?=[:.?&])/).map((part, i) => (i ? html`<wbr aria-hidden="true" />${named(part)}` : named(part)));
}
