import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import type { CodeSnippet } from '../../src/components/code-snippet/code-snippet.component.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager, type ConsoleConfig } from '../../src/core/index.js';
import type { TicRequestErrorEvent, TicResponseEvent } from '../../src/events/index.js';
import { axNodes, type AXNode } from './support/accessibility-tree.js';

// Found by an accessibility review: a keyboard-only user, a screen-reader user and a forced-colors (Windows High
// Contrast) user meeting the elements.

let servers: { api: string; proxy: string };
let run = 0;

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

function config(): ConsoleConfig {
  run += 1;
  return {
    corsProxy: servers.proxy,
    environments: [{ name: 'Local', variables: { base_url: servers.api } }],
    history: { enabled: true, storageKey: `accessibility-review-${Date.now()}-${run}` },
  };
}

function typeInto(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

async function pressCtrlEnter(): Promise<void> {
  await sendKeys({ down: 'Control' });
  await sendKeys({ press: 'Enter' });
  await sendKeys({ up: 'Control' });
}

async function axNode(role: string, name: string): Promise<AXNode | undefined> {
  return (await axNodes()).find((node) => node.role === role && node.name === name);
}

/**
 * Applies an element's `@media (forced-colors: active)` rules, as forced colors would: Web Test Runner's emulateMedia
 * cannot turn forced colors on in Chromium through Puppeteer. Forced colors replace every author colour but the
 * system colours (Canvas, Highlight…), so a state drawn in author colours alone vanishes there.
 */
function applyForcedColorsRules(root: ShadowRoot): void {
  const rules = root.adoptedStyleSheets
    .flatMap((sheet) => [...sheet.cssRules])
    .filter((rule): rule is CSSMediaRule => rule instanceof CSSMediaRule && rule.media.mediaText.includes('forced-colors: active'));
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules.flatMap((rule) => [...rule.cssRules].map((inner) => inner.cssText)).join('\n'));
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
}

/** A system colour as Chromium resolves it now. */
function systemColour(name: string): string {
  const probe = document.createElement('span');
  probe.style.color = name;
  document.body.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

describe('accessibility review', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('<try-it-console> moves focus to Cancel, not to the page, when Ctrl+Enter in the response body sends again and the body goes', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets"></try-it-console>`);
    const response = oneEvent<TicResponseEvent>(el, 'tic-response');
    await el.send();
    await response;
    await el.updateComplete;
    // The user edits the URL (the response stays) and, reading the body, sends again from there.
    typeInto($<HTMLInputElement>(el, '#url'), '{{base_url}}/hold');
    $(el, '.response-body').focus();
    await pressCtrlEnter();
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.getAttribute('part'), 'on the button that cancels the send').to.equal('cancel-button');
    const cancelled = oneEvent<TicRequestErrorEvent>(el, 'tic-request-error');
    await sendKeys({ press: 'Enter' });
    expect((await cancelled).error.kind).to.equal('aborted');
  });

  it('<try-it-console> moves focus from a removed header row’s ✕ straight to Add header, with no stop on Send', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets" .headers=${{ 'X-One': '1', 'X-Two': '2' }}></try-it-console>`);
    const removes = () => [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button.remove')];
    // Each stop is said by a screen reader: one on Send on the way would read out a button nobody chose.
    const stops: string[] = [];
    el.shadowRoot!.addEventListener('focusin', (event) => stops.push((event.target as HTMLElement).textContent!.trim()));
    removes().at(-1)!.focus();
    await sendKeys({ press: 'Enter' });
    await el.updateComplete;
    expect(stops).to.deep.equal(['✕', 'Add header']);
    expect(removes().length).to.equal(1);
  });

  it('<try-it-console> leaves focus alone when what had it goes outside the response: the next Space does not send', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} method="DELETE" url="{{base_url}}/pets/1" .headers=${{ 'X-Note': '' }}></try-it-console>`);
    $(el, 'button.add-header').click();
    await el.updateComplete;
    const value = el.shadowRoot!.querySelectorAll<HTMLInputElement>('.header-row input.value')[1]!;
    value.focus();
    await sendKeys({ type: 'Bearer' });
    // The page's sign-in lands while the reader types: its preset of one row replaces the rows, the focused one gone.
    el.headers = { Authorization: 'Bearer token' };
    await el.updateComplete;
    expect(el.shadowRoot!.activeElement?.id, 'not moved to Send').to.not.equal('send');
    let sent = false;
    el.addEventListener('tic-before-send', (event) => {
      sent = true;
      event.preventDefault();
    });
    await sendKeys({ type: ' ' });
    await el.updateComplete;
    expect(sent, 'a DELETE sent by a Space meant for the header').to.equal(false);
  });

  it('<try-it-console> says a failure again when Send is pressed again and fails the same way', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="ftp://example.com/pets"></try-it-console>`);
    const send = $<HTMLButtonElement>(el, '[part="send-button"]');
    send.click();
    await el.updateComplete;
    expect($(el, '[role="alert"]').textContent).to.contain('Invalid URL');
    // Screen readers say an alert when it is added; one left in place, with the same text, says nothing.
    const alertsAdded: Element[] = [];
    const watch = new MutationObserver((records) => {
      for (const record of records) alertsAdded.push(...[...record.addedNodes].filter((node): node is Element => node instanceof Element && node.matches('[role="alert"]')));
    });
    watch.observe(el.shadowRoot!, { childList: true, subtree: true });
    send.click();
    await el.updateComplete;
    watch.disconnect();
    expect(alertsAdded.length, 'the alert added again').to.equal(1);
    expect(alertsAdded[0]!.textContent).to.contain('Invalid URL');
  });

  it('<try-it-console> describes the URL field by what its unresolved variables lack, and marks it invalid, without reading the URL twice', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets/{{pet_id}}"></try-it-console>`);
    const url = await axNode('textbox', 'URL');
    expect(url?.description).to.equal('pet_id is not defined in the active environment.');
    expect(url?.invalid).to.equal('true');
    el.url = '{{base_url}}/pets';
    await el.updateComplete;
    const resolved = await axNode('textbox', 'URL');
    expect(resolved?.description).to.equal(undefined);
    expect(resolved?.invalid).to.equal(undefined);
  });

  it('<env-picker> draws a pressed Show button in system colours under forced colors, which keep them', async () => {
    const manager = new EnvironmentManager({ name: 'Local', variables: { api_token: 'secret-one', api_key: 'secret-two' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager}></env-picker>`);
    el.shadowRoot!.querySelector<HTMLButtonElement>('button[aria-pressed]')!.click();
    await el.updateComplete;
    applyForcedColorsRules(el.shadowRoot!);
    const [pressed, unpressed] = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button[aria-pressed]')].map((button) => getComputedStyle(button));
    expect([pressed!.backgroundColor, pressed!.color]).to.deep.equal([systemColour('Highlight'), systemColour('HighlightText')]);
    // Adjusted, forced colors draw the label on a Canvas backplate, where HighlightText vanishes.
    expect(pressed!.forcedColorAdjust).to.equal('none');
    expect(unpressed!.backgroundColor).not.to.equal(systemColour('Highlight'));
  });

  it('<code-snippet> underlines only the selected tab under forced colors, in system colours, which they keep', async () => {
    const el = await fixture<CodeSnippet>(html`<code-snippet url="https://api.example.com/pets"></code-snippet>`);
    applyForcedColorsRules(el.shadowRoot!);
    const [selected, ...others] = [...el.shadowRoot!.querySelectorAll('[role="tab"]')].map((tab) => getComputedStyle(tab).borderBottomColor);
    expect(selected).to.equal(systemColour('Highlight'));
    // Transparent is an author colour too: forced colors drew every tab's underline in the text colour.
    for (const other of others) expect(other).to.equal(systemColour('Canvas'));
  });

  it('<try-it-console> draws the URL\'s variables, known and missing, in the system\'s mark colours under forced colors, which keep them', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config()} url="{{base_url}}/pets/{{pet_id}}"></try-it-console>`);
    applyForcedColorsRules(el.shadowRoot!);
    const marks = [...el.shadowRoot!.querySelectorAll('mark.variable')].map((mark) => getComputedStyle(mark));
    expect(marks.length, 'base_url and the missing pet_id').to.equal(2);
    // Their tint kept its transparency over a forced text colour: dark text on a dark tint in a dark theme.
    for (const mark of marks) expect([mark.backgroundColor, mark.color, mark.forcedColorAdjust]).to.deep.equal([systemColour('Mark'), systemColour('MarkText'), 'none']);
    expect(marks[1]!.textDecorationStyle, 'the missing one still wavy').to.equal('wavy');
  });
});
