// How often a large snippet goes on screen again while it changes: a clock the test moves, real timers for `onDue`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LargeTextThrottle } from '../../src/components/code-snippet/large-text-throttle.js';

const LIMIT = 10;
const large = (tag: string) => `${tag}${'x'.repeat(LIMIT)}`;

describe('LargeTextThrottle', () => {
  it('shows small texts at once, and holds back a large one that follows another within the interval', async () => {
    let clock = 0;
    let due = 0;
    let onDue = () => {};
    const throttle = new LargeTextThrottle(LIMIT, 250, () => {
      due += 1;
      onDue();
    }, () => clock);
    assert.equal(throttle.pick('small'), 'small');
    assert.equal(throttle.pick('small 2'), 'small 2');
    // From small to large and back: at once, there was no long line to lay out again.
    assert.equal(throttle.pick(large('a')), large('a'));
    clock = 100;
    const wentDue = new Promise<void>((resolve) => (onDue = resolve));
    assert.equal(throttle.pick(large('b')), large('a'), 'held back within the interval');
    assert.equal(throttle.pick(large('c')), large('a'), 'still held back');
    // The owner is called back once the interval since `a` went on screen has passed (150 ms from here).
    await wentDue;
    assert.equal(due, 1);
    clock = 250;
    assert.equal(throttle.pick(large('c')), large('c'));
    clock = 260;
    assert.equal(throttle.pick(large('d')), large('c'));
    throttle.release();
    assert.equal(throttle.pick(large('d')), large('d'), 'released: shown at once');
    clock = 270;
    assert.equal(throttle.pick('small'), 'small');
    assert.equal(throttle.pick(undefined), undefined);
    throttle.stop();
  });

  it('calls back no more once stopped', async () => {
    let clock = 0;
    let due = 0;
    const throttle = new LargeTextThrottle(LIMIT, 20, () => (due += 1), () => clock);
    throttle.pick(large('a'));
    clock = 5;
    assert.equal(throttle.pick(large('b')), large('a'));
    throttle.stop();
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(due, 0);
  });
});
