// A keyboard review of the demo: a header or query parameter holding a variable the environment lacks was marked
// nowhere but the side panel (only the URL field was), and Query parameters, Headers and Body were no headings, so
// heading keys went from Request straight to Response.
import { expect, fixture, html } from '@open-wc/testing';
import '../../src/index.js';
import type { TryItConsole } from '../../src/components/try-it-console/try-it-console.component.js';
import { axNodes } from './support/accessibility-tree.js';

const $ = <T extends Element = HTMLElement>(el: Element, selector: string) => el.shadowRoot!.querySelector<T>(selector)!;
const textbox = async (name: string) => (await axNodes()).find((node) => node.role === 'textbox' && node.name === name);
const LACKS = 'my_key is not defined in the active environment.';

describe('<try-it-console> fields (hunt 4)', () => {
  it('marks a header value and a query parameter holding a variable the environment lacks as the URL field is, and not one it has', async () => {
    const config = {
      history: { enabled: false },
      environments: [
        { name: 'Sandbox', variables: { base_url: 'http://127.0.0.1:9', pet_id: '7' } },
        { name: 'Production', variables: { base_url: 'http://127.0.0.1:9', pet_id: '7', my_key: 'k-1' } },
      ],
    };
    const headers = { 'X-Api-Key': '{{my_key}}', 'X-Pet': '{{pet_id}}', 'X-Off': '{{my_key}}' };
    const el = await fixture<TryItConsole>(html`<try-it-console .config=${config} url="/pets?key={{my_key}}&id={{pet_id}}" .headers=${headers}></try-it-console>`);
    // A row switched off is not sent: nothing it lacks is a problem.
    el.shadowRoot!.querySelectorAll<HTMLInputElement>('.header-row input[type="checkbox"]')[2]!.click();
    await el.updateComplete;

    for (const name of ['Header 1 value', 'Parameter 1 value']) {
      const field = await textbox(name);
      expect([field?.invalid, field?.description], name).to.deep.equal(['true', LACKS]);
    }
    for (const name of ['Header 2 value', 'Header 3 value', 'Parameter 2 value', 'Header 1 name', 'Parameter 1 name']) {
      const field = await textbox(name);
      expect([field?.invalid, field?.description], name).to.deep.equal([undefined, undefined]);
    }
    // Seen as the URL's is: the value under its row, the variable marked as missing.
    const marks = [...el.shadowRoot!.querySelectorAll<HTMLElement>('fieldset mark.variable.missing')];
    expect(marks.map((mark) => [mark.closest('fieldset')!.className, mark.textContent])).to.deep.equal([
      ['parameters', '{{my_key}}'],
      ['headers', '{{my_key}}'],
    ]);
    expect(marks.every((mark) => mark.getClientRects().length > 0), 'drawn').to.equal(true);
    expect(getComputedStyle(marks[1]!).textDecorationLine, 'as in the URL').to.equal(getComputedStyle($(el, '.url-template mark.missing')).textDecorationLine);
    await expect(el).to.be.accessible();

    // Defined in the environment picked, nothing is marked.
    el.engine!.environments.setActive('Production');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelectorAll('fieldset .url-template, [aria-invalid]').length).to.equal(0);
  });

  it('gives Query parameters, Headers and Body headings one level under Request, drawn as before', async () => {
    const el = await fixture<TryItConsole>(html`<try-it-console method="POST" heading-level="4" .config=${{ history: { enabled: false } }}></try-it-console>`);
    const headings = async () => (await axNodes()).filter((node) => node.role === 'heading').map((node) => `${node.name} ${node.level}`).slice(0, 5);
    expect(await headings()).to.deep.equal(['Request 4', 'Query parameters 5', 'Headers 5', 'Body 5', 'Response 4']);
    // The body field keeps its label.
    expect(await textbox('Body')).not.to.equal(undefined);
    // Drawn as the labels were: the console's size, not a heading's.
    const body = getComputedStyle($(el, '.body-label h3'));
    expect([body.fontSize, body.marginTop]).to.deep.equal([getComputedStyle(el).fontSize, '0px']);
    await expect(el).to.be.accessible();

    // At the default level, under Request's 2; at 6, they stay at 6 (there is no 7).
    el.removeAttribute('heading-level');
    await el.updateComplete;
    expect(await headings()).to.deep.equal(['Request 2', 'Query parameters 3', 'Headers 3', 'Body 3', 'Response 2']);
    el.setAttribute('heading-level', '6');
    await el.updateComplete;
    expect(await headings()).to.deep.equal(['Request 6', 'Query parameters 6', 'Headers 6', 'Body 6', 'Response 6']);
    await expect(el).to.be.accessible();
  });
});
