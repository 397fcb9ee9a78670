// The failure values support/readable-failures.ts sends instead of DOM objects, which would stall the run.
import { expect } from '@open-wc/testing';
import { readableValue } from './support/readable-failures.js';

describe('readable failure values', () => {
  it('describes elements, other nodes and windows, also inside arrays and plain objects', () => {
    const element = document.createElement('try-it-console');
    element.id = 'main';
    expect(readableValue(element)).to.equal('<try-it-console#main>');
    expect(readableValue({ rows: [document.createElement('td'), document.createTextNode('x')], page: window })).to.deep.equal({ rows: ['<td>', '[#text]'], page: '[Window]' });
  });

  it('describes lists of nodes and collections as arrays of descriptions', () => {
    const list = document.createElement('ul');
    list.append(document.createElement('li'), document.createElement('li'));
    expect(readableValue(list.querySelectorAll('li'))).to.deep.equal(['<li>', '<li>']);
    expect(readableValue(list.children)).to.deep.equal(['<li>', '<li>']);
    expect(readableValue(new Set([list]))).to.deep.equal(['<ul>']);
    expect(readableValue(new Map([['list', list]]))).to.deep.equal([['list', '<ul>']]);
  });

  it('leaves primitives, class instances and what lies deeper than four levels as they are', () => {
    const date = new Date(0);
    const deep = { a: { b: { c: { d: { e: document.body } } } } };
    expect(readableValue('text')).to.equal('text');
    expect(readableValue(undefined)).to.equal(undefined);
    expect(readableValue(date)).to.equal(date);
    expect((readableValue(deep) as typeof deep).a.b.c.d.e).to.equal(document.body);
  });
});
