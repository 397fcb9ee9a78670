// A usability review of <env-picker> in Chromium (target sizes, line breaking, headings, the empty state): each test
// failed on the code as it was before the fix it comes with.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import { EnvironmentManager } from '../../src/core/index.js';
import { axNodes } from './support/accessibility-tree.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const LONG_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

/** Buttons smaller than WCAG 2.2's minimum target (2.5.8, AA), 24 by 24 CSS px, as `name width×height`. */
function smallButtons(root: ShadowRoot): string[] {
  return [...root.querySelectorAll('button')]
    .map((button) => ({ name: button.getAttribute('aria-label') ?? button.textContent!.trim(), box: button.getBoundingClientRect() }))
    .filter(({ box }) => box.width < 24 || box.height < 24)
    .map(({ name, box }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`);
}

/** The words of `text` (a text node) drawn over two lines: broken inside the word. */
function wordsBroken(text: Text): string[] {
  const broken: string[] = [];
  for (const match of text.textContent!.matchAll(/\S+/g)) {
    const range = document.createRange();
    range.setStart(text, match.index);
    range.setEnd(text, match.index + match[0].length);
    if (new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size > 1) broken.push(match[0]);
  }
  return broken;
}

/** The headings and the select of the page, as the accessibility tree names them. */
async function outline(): Promise<string[]> {
  return (await axNodes()).filter((node) => node.role === 'heading' || node.role === 'combobox').map((node) => `${node.role} ${node.name} ${node.level ?? ''}`.trim());
}

describe('<env-picker> usability review', () => {
  it('gives Show and Edit a target of 24 by 24 px, also beside a long value in a narrow panel (WCAG 2.2 target size)', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { api_token: LONG_TOKEN, base_url: 'https://api.example.com/v1', region: 'eu' } });
    for (const width of [320, 375, 640]) {
      const el = await fixture<EnvPicker>(html`<env-picker style="width: ${width}px" .manager=${environments} .missing=${['pet_id']}></env-picker>`);
      expect(el.shadowRoot!.querySelectorAll('button').length, 'Show, three Edits and a Set').to.equal(5);
      expect(smallButtons(el.shadowRoot!), `at ${width} px`).to.deep.equal([]);
      // Shown, the long value fills lines of its own, with Show and Edit after it.
      $<HTMLButtonElement>(el, 'button[aria-pressed]').click();
      await el.updateComplete;
      expect(smallButtons(el.shadowRoot!), `at ${width} px, shown`).to.deep.equal([]);
    }
  });

  it('breaks words only where they do not fit: the multi-line field’s hint between words, a long token within its cell', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { note: 'line one\nline two', api_token: LONG_TOKEN, a_very_long_variable_name_with_no_spaces: 'x' } });
    const el = await fixture<EnvPicker>(html`<env-picker style="width: 320px" .manager=${environments}></env-picker>`);
    $<HTMLButtonElement>(el, 'button[aria-pressed]').click();
    $<HTMLButtonElement>(el, 'button.edit[data-name="note"]').click();
    await el.updateComplete;
    const hint = $(el, '#edit-hint');
    expect(hint.textContent, 'the multi-line field’s hint').to.contain('Escape cancels');
    expect(wordsBroken(hint.firstChild as Text)).to.deep.equal([]);
    // Long unbroken text still breaks rather than spill out of its cell, names as values.
    for (const cell of el.shadowRoot!.querySelectorAll<HTMLElement>('tbody th, tbody td')) {
      for (const part of [cell, ...cell.querySelectorAll<HTMLElement>('.text, button')]) {
        expect(part.getBoundingClientRect().right, `${cell.textContent!.trim().slice(0, 20)}…`).to.be.at.most(cell.getBoundingClientRect().right + 0.5);
      }
    }
    expect(el.scrollWidth).to.be.at.most(el.clientWidth);
  });

  it('titles its panel with an Environment heading, as the history is titled, which still names the select', async () => {
    const environments = new EnvironmentManager({ name: 'Production', variables: { base_url: 'https://api.example.com' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${environments}></env-picker>`);
    expect(await outline()).to.deep.equal(['heading Environment 2', 'combobox Environment']);
    // Clicking the title still goes to the select, as its label did.
    $(el, 'label').click();
    expect(el.shadowRoot!.activeElement?.id).to.equal('environment');
    await expect(el).to.be.accessible();
  });

  it('takes heading-level as <request-history> does: 1 to 6, else 2', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker heading-level="4" .manager=${new EnvironmentManager({ name: 'Local', variables: {} })}></env-picker>`);
    expect(await outline()).to.deep.equal(['heading Environment 4', 'combobox Environment']);
    el.headingLevel = 1; // as a framework sets it
    await el.updateComplete;
    expect(await outline()).to.deep.equal(['heading Environment 1', 'combobox Environment']);
    for (const level of ['7', '0', 'three']) {
      el.setAttribute('heading-level', level);
      await el.updateComplete;
      expect(await outline(), level).to.deep.equal(['heading Environment 2', 'combobox Environment']);
    }
  });

  it('with no environments, keeps its heading over a muted note, and shows no control that would do nothing', async () => {
    const el = await fixture<EnvPicker>(html`<env-picker heading-level="3" style="--tic-color-muted: rgb(1, 2, 3)" .manager=${new EnvironmentManager()} .missing=${['token']}></env-picker>`);
    expect(await outline()).to.deep.equal(['heading Environment 3']);
    const note = $(el, 'p');
    expect(note.textContent!.trim()).to.equal('No environments are configured.');
    // A note in the muted colour of hints and times, not an alert nor the colour of problems.
    expect([note.getAttribute('role'), getComputedStyle(note).color]).to.deep.equal([null, 'rgb(1, 2, 3)']);
    expect(el.shadowRoot!.querySelectorAll('button, input, select, textarea, label').length, 'no select, Show values box, Edit or Set').to.equal(0);
    await expect(el).to.be.accessible();
  });
});
