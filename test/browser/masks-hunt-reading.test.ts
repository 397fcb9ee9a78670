// A mask (••••••••) was read out as "bullet bullet bullet bullet bullet bullet bullet bullet" wherever the environment
// panel, the history rows and the console showed one: the variables table, a row's name, its ✕'s name, the deletion
// announcement, the default headers, the "Sends to" line and a failure quoting the URL. Each is now said as "hidden
// value", as <code-snippet> says it, while the text seen (and copied by hand) stays the bullets. Checked against the
// names Chromium computes; each test but the "bullets of its own" ones (which pin what must not change) failed on the
// code before the change.
import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import { a11ySnapshot } from '@web/test-runner-commands';
import '../../src/index.js';
import type { EnvPicker } from '../../src/components/env-picker/env-picker.component.js';
import type { RequestHistory } from '../../src/components/request-history/request-history.component.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { EnvironmentManager, History } from '../../src/core/index.js';
import { axNodes, type AXNode } from './support/accessibility-tree.js';

const MASK = '••••••••';
const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const $$ = (el: Element, selector: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(selector)];
const squeezed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What a screen reader reading `node` line by line meets: its texts, and its images by their names. */
const readOut = (node: AXNode): string => (node.role === 'image' ? ` ${node.name} ` : node.children ? node.children.map(readOut).join('') : (node.name ?? ''));

/**
 * The read-outs of `el`'s elements matching `selector` (made focusable: the snapshot lists only those and leaves), by
 * the `role` Chromium gives them, in document order, white space squeezed.
 */
async function readOuts(el: Element, selector: string, role: string): Promise<string[]> {
  for (const element of $$(el, selector)) element.setAttribute('tabindex', '-1');
  const all = (node: AXNode): AXNode[] => [node, ...(node.children ?? []).flatMap(all)];
  return all((await a11ySnapshot({})) as unknown as AXNode)
    .filter((node) => node.role === role)
    .map((node) => squeezed(readOut(node)));
}

/** The cells of a picker's table as Chromium names them (made focusable: the snapshot lists only those and leaves). */
async function cellNames(el: EnvPicker): Promise<string[]> {
  for (const cell of $$(el, 'tbody td')) cell.setAttribute('tabindex', '-1');
  return (await axNodes()).filter((node) => node.role === 'cell').map((node) => node.name ?? '');
}

/** What is copied when the reader selects `element`'s text by hand. */
function selectedText(element: Element): string {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = getSelection()!;
  selection.removeAllRanges();
  selection.addRange(range);
  const text = selection.toString();
  selection.removeAllRanges();
  return text;
}

describe('<env-picker> reading masked values', () => {
  it('says each mask of the table as "hidden value": a value masked whole, and the masked parts of a URL and a connection string', async () => {
    const manager = new EnvironmentManager({
      name: 'Local',
      variables: { api_token: 'tok-123', base_url: 'https://user:pw-4242@api.example.com/x?api_key=abcdef', db: 'Server=db;Password=abc123', region: 'eu' },
    });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager}></env-picker>`);
    expect(await cellNames(el)).to.deep.equal([
      'hidden value Show the value of api_token Edit the value of api_token',
      'https://user: hidden value @api.example.com/x?api_key= hidden value Show the value of base_url Edit the value of base_url',
      'Server=db;Password= hidden value Show the value of db Edit the value of db',
      'eu Edit the value of region',
    ]);
    // Seen, and copied by hand, as the bullets.
    const texts = $$(el, 'td .text');
    const shown = [MASK, `https://user:${MASK}@api.example.com/x?api_key=${MASK}`, `Server=db;Password=${MASK}`, 'eu'];
    expect(texts.map((text) => text.textContent)).to.deep.equal(shown);
    expect(texts.map(selectedText)).to.deep.equal(shown);
    await expect(el).to.be.accessible();
    // Shown, a value is its own text: nothing in it is a hidden value.
    $<HTMLButtonElement>(el, 'button[aria-label="Show the value of api_token"]').click();
    await el.updateComplete;
    expect((await cellNames(el))[0]).to.equal('tok-123 Show the value of api_token Edit the value of api_token');
  });

  it('does not call a mask a hidden value in a value holding bullets of its own', async () => {
    const manager = new EnvironmentManager({ name: 'Local', variables: { notes_url: 'https://user:pw-4242@api.example.com/?note=•••' } });
    const el = await fixture<EnvPicker>(html`<env-picker .manager=${manager}></env-picker>`);
    const [name] = await cellNames(el);
    expect(name).to.equal(`https://user:${MASK}@api.example.com/?note=••• Show the value of notes_url Edit the value of notes_url`);
  });
});

describe('<request-history> reading masked URLs', () => {
  const shown = async (history: History) => {
    const el = await fixture<RequestHistory>(html`<request-history .history=${history} .maskedValues=${['123456:AAH-bot-key']}></request-history>`);
    await history.ready();
    await el.updateComplete;
    return el;
  };
  const buttonNames = async () => (await axNodes()).filter((node) => node.role === 'button' && /^(Delete )?GET /.test(node.name ?? '')).map((node) => squeezed(node.name!));
  const announced = async (el: RequestHistory) => {
    $<HTMLButtonElement>(el, 'button.delete').click();
    await waitUntil(() => $(el, '[role="status"]').textContent, 'the deletion announced');
    return $(el, '[role="status"]').textContent;
  };

  it('says each mask as "hidden value" in the entry’s name, its ✕’s name and the deletion announcement; shows it as bullets', async () => {
    const history = new History({ enabled: true });
    history.add({ id: 'a', method: 'GET', url: 'https://user:hunter2@api.example/bot123456:AAH-bot-key/getMe?api_key=sk_live_51HxYz&page=2', status: 200, duration: 3 });
    const el = await shown(history);
    const [entry, remove] = await buttonNames();
    expect(entry).to.match(/^GET https:\/\/user: hidden value @api\.example\/bot hidden value \/getMe\?api_key= hidden value &page=2 200 3 ms/);
    expect(remove).to.match(/^Delete GET https:\/\/user: hidden value @api\.example\/bot hidden value \/getMe\?api_key= hidden value &page=2 \(200, 3 ms, /);
    // Seen, hovered and copied by hand as the bullets.
    const url = `https://user:${MASK}@api.example/bot${MASK}/getMe?api_key=${MASK}&page=2`;
    expect($(el, '.path').title).to.equal(url);
    expect(selectedText($(el, '.path'))).to.equal(url);
    expect(squeezed($(el, 'button.entry').textContent!)).to.match(new RegExp(`^GET ${url.replace(/[?.]/g, '\\$&')}`));
    await expect(el).to.be.accessible();
    expect(await announced(el)).to.equal('Deleted GET https://user: hidden value @api.example/bot hidden value /getMe?api_key= hidden value &page=2 from history.');
  });

  it('does not call a mask a hidden value in a URL holding bullets of its own', async () => {
    const history = new History({ enabled: true });
    history.add({ id: 'a', method: 'GET', url: 'https://api.example/notes/•••?api_key=sk_live_51HxYz', status: 200, duration: 3 });
    const el = await shown(history);
    const names = await buttonNames();
    expect(names.length).to.equal(2);
    expect(names.filter((name) => name.includes('hidden value') || !name.includes(`/notes/•••?api_key=${MASK}`))).to.deep.equal([]);
    expect(await announced(el)).to.equal(`Deleted GET https://api.example/notes/•••?api_key=${MASK} from history.`);
  });
});

describe('<try-it-console> reading masked values', () => {
  const config = (url: string) => ({
    defaultHeaders: { Authorization: 'Bearer sk_live_51HxQ2eKz8fA9bC3dE4', 'X-Client': 'docs' },
    environments: [{ name: 'Local', variables: { api_key: 'sk-live-0123456789', port: '25' } }],
    history: { enabled: false },
    url,
  });
  /** The read-out of the "Sends to" line, after those words (their own text node, its end space trimmed). */
  const sendsTo = async (el: TryItConsole) => {
    const lines = (await readOuts(el, '[part="resolved-url"]', 'paragraph')).filter((text) => text.startsWith('Sends to'));
    expect(lines.length, 'one "Sends to" line').to.equal(1);
    return lines[0]!.slice('Sends to'.length);
  };
  const failed = async (url: string) => {
    const { url: written, ...rest } = config(url);
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${rest} url=${written}></try-it-console>`);
    const error = oneEvent(el, 'tic-request-error');
    await el.send();
    await error;
    await el.updateComplete;
    return el;
  };

  it('says each mask as "hidden value" in the default headers, the "Sends to" line and a failure quoting the URL; shows it as bullets', async () => {
    // Port 25 is refused before anything is sent, in a message that quotes the resolved URL.
    const el = await failed('https://api.example.com:{{port}}/pets?api_key={{api_key}}');
    expect(await readOuts(el, '[part="default-headers"] li', 'listitem')).to.deep.equal(['Authorization: hidden value', 'X-Client: docs']);
    expect(await sendsTo(el)).to.equal('https://api.example.com:25/pets?api_key= hidden value');
    const [alert] = await readOuts(el, '[part="error"]', 'alert');
    expect(alert).to.contain('"https://api.example.com:25/pets?api_key= hidden value " uses port 25').and.not.to.contain('•');

    // Seen, and copied by hand, as the bullets.
    expect($$(el, '[part="default-headers"] li').map((item) => squeezed(item.textContent!))).to.deep.equal([`Authorization: ${MASK}`, 'X-Client: docs']);
    expect(selectedText($(el, '[part="resolved-url"]'))).to.contain(`https://api.example.com:25/pets?api_key=${MASK}`);
    expect($(el, '[part="error"]').textContent).to.contain(`"https://api.example.com:25/pets?api_key=${MASK}" uses port 25`);
    await expect(el).to.be.accessible();
  });

  it('does not call a mask a hidden value in a URL holding bullets of its own', async () => {
    const el = await failed('https://api.example.com:{{port}}/notes/•••?api_key={{api_key}}');
    expect(await sendsTo(el)).to.equal(`https://api.example.com:25/notes/•••?api_key=${MASK}`);
    const [alert] = await readOuts(el, '[part="error"]', 'alert');
    expect(alert).to.contain(`/notes/•••?api_key=${MASK}`).and.not.to.contain('hidden value');
  });
});
