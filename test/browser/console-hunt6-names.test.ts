// Copy and Download of a response are named for screen readers with what they act on (the body, the file saved and its
// size), their visible label at the start of the name (WCAG 2.5.3, label in name) in every state of the Copy button.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { axNodes } from './support/accessibility-tree.js';

let servers: { api: string; corsApi: string; proxy: string };

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;

async function sent(url: string): Promise<TryItConsole> {
  const el = await fixture<TryItConsole>(html`<try-it-console .config=${{ corsProxy: servers.proxy, history: { enabled: false } }} url=${url}></try-it-console>`);
  await el.send();
  await el.updateComplete;
  return el;
}

/** The names Chromium gives the links and buttons about a body whose name starts with `start` (not the snippet's Copy). */
async function namesStarting(start: string): Promise<string[]> {
  return (await axNodes()).filter((node) => ['link', 'button'].includes(node.role) && node.name?.startsWith(start) && node.name.includes(' body')).map((node) => node.name!);
}

/** `visible` is the start of `name`, as WCAG 2.5.3 asks. */
function expectLabelInName(visible: string, name: string | null): void {
  expect(name?.startsWith(visible), `"${name}" starts with "${visible}"`).to.equal(true);
}

describe('<try-it-console> hunt 6: Copy and Download named with their context', () => {
  before(async () => {
    servers = await (await fetch('/__test-servers.json')).json();
  });

  it('names Download with the body, the file and its size', async () => {
    const el = await sent(`${servers.api}/precise`);
    expect(await namesStarting('Download')).to.deep.equal(['Download the response body (precise.json, 60 B)']);
    const link = $(el, 'a.download');
    expectLabelInName(link.textContent!, link.getAttribute('aria-label'));
  });

  it('names the links of a body shown in part, and of an image, with their file and size', async () => {
    const cut = await sent(`${servers.api}/panel/256k-and-1`);
    expect(await namesStarting('Download')).to.deep.equal(['Download the response body (256k-and-1.txt, 256 KB)', 'Download the whole body (256k-and-1.txt, 256 KB)']);
    cut.remove();
    const image = await sent(`${servers.api}/image`);
    const link = $(image, 'a.download');
    expect(link.getAttribute('aria-label')).to.equal('Download the response body (image.png, 70 B)');
  });

  it('keeps the visible label of Copy at the start of its name as it says Copied and Copy blocked', async () => {
    const el = await sent(`${servers.api}/precise`);
    const copy = $<HTMLButtonElement>(el, '[part="copy-body-button"]');
    expect(await namesStarting('Cop')).to.deep.equal(['Copy the response body']);
    copy.click();
    await waitUntil(() => copy.textContent!.trim() === 'Copied', 'the button says it copied');
    expectLabelInName('Copied', copy.getAttribute('aria-label'));
    expect(await namesStarting('Cop')).to.deep.equal(['Copied the response body']);

    // As a frame whose page does not allow clipboard-write refuses both ways.
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
    document.execCommand = () => false;
    try {
      copy.click();
      await waitUntil(() => copy.textContent!.trim() === 'Copy blocked', 'the button says Copy blocked');
    } finally {
      delete (navigator.clipboard as Partial<Clipboard>).writeText;
      delete (document as Partial<Document>).execCommand;
    }
    expectLabelInName('Copy blocked', copy.getAttribute('aria-label'));
    expect(await namesStarting('Cop')).to.deep.equal(['Copy blocked: the response body']);
  });
});
