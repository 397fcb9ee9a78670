import { expect } from '@open-wc/testing';
import { defineElement } from '../../src/components/define-element.js';

/** Runs `define` and returns what it said in the console. */
function warningsOf(define: () => void): string[] {
  const warnings: string[] = [];
  const warn = console.warn;
  console.warn = (message: string) => warnings.push(message);
  try {
    define();
  } finally {
    console.warn = warn;
  }
  return warnings;
}

describe('defineElement', () => {
  it('defines a free tag, and says nothing when the same class comes again', () => {
    class Ours extends HTMLElement {}
    expect(warningsOf(() => defineElement('tic-test-free', Ours))).to.deep.equal([]);
    expect(customElements.get('tic-test-free')).to.equal(Ours);
    expect(warningsOf(() => defineElement('tic-test-free', Ours))).to.deep.equal([]);
  });

  it('says so when another copy of the package defined the tag first, and keeps that copy’s element', () => {
    class FirstCopy extends HTMLElement {}
    class SecondCopy extends HTMLElement {}
    defineElement('tic-test-copy', FirstCopy);
    const warnings = warningsOf(() => defineElement('tic-test-copy', SecondCopy));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('<tic-test-copy> is defined by another copy of try-it-console');
    expect(customElements.get('tic-test-copy')).to.equal(FirstCopy);
  });

  it('says so when another library took the tag, whose element would show in place of ours', () => {
    customElements.define('tic-test-taken', class extends HTMLElement {});
    const warnings = warningsOf(() => defineElement('tic-test-taken', class extends HTMLElement {}));
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.contain('<tic-test-taken> is defined by another library');
  });
});
