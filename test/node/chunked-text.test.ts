// The blocks a long response text is laid out in (chunked-text.ts): joined with the line ends their edges stand for,
// they are the text; and no block ends in a line end, which a block's edge would swallow with the blank line it made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunkedText } from '../../src/components/try-it-console/chunked-text.js';

function blocksOf(text: string): string[] {
  const laidOut = chunkedText(text);
  return typeof laidOut === 'string' ? [laidOut] : laidOut.map((block) => block.values[0] as string);
}

test('blocks joined with line ends are the text, none ending in a line end but the last, none empty', () => {
  const texts = [
    Array.from({ length: 5_000 }, (_, index) => (index % 100 === 99 ? '' : `line ${index}`)).join('\n'),
    Array.from({ length: 5_000 }, (_, index) => (index % 3 === 0 ? '' : `line ${index}\r`)).join('\n') + '\n\n\n',
    'x\n\n\n'.repeat(12_000),
    Array.from({ length: 50 }, (_, index) => 'z'.repeat(index * 300)).join('\n'),
  ];
  for (const text of texts) {
    const blocks = blocksOf(text);
    assert.ok(blocks.length > 1, 'laid out in blocks');
    assert.equal(blocks.join('\n'), text);
    blocks.slice(0, -1).forEach((block, index) => {
      assert.ok(block !== '' && !block.endsWith('\n'), `block ${index} of ${blocks.length} ends in a line end: ${JSON.stringify(block.slice(-20))}`);
    });
  }
});

test('a text up to 32 KB, or without a line end but at its end, stays one text', () => {
  assert.equal(chunkedText('a\n'.repeat(16 * 1024)), 'a\n'.repeat(16 * 1024));
  assert.equal(chunkedText(`${'y'.repeat(40_000)}\n`), `${'y'.repeat(40_000)}\n`);
});
