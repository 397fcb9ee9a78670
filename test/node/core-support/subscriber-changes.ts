// What EnvironmentManager and History share through notifySubscribers, tested on each: a subscriber changing its
// subscription while it is told of a change.
import assert from 'node:assert/strict';
import { it } from 'node:test';

interface Subscribable {
  subscribe(listener: () => void): () => void;
}

/** The two tests, for an owner made by `make` with two changes to make to it in turn. */
export function subscriberChangeTests(make: () => { owner: Subscribable; changes: [() => void, () => void] }): void {
  it('calls a subscriber that subscribes again once per change, not again and again', () => {
    const { owner, changes } = make();
    let calls = 0;
    let unsubscribe = () => {};
    // What a host moved in the DOM does from its listener: unsubscribes on leaving, subscribes on coming back.
    const listener = () => {
      calls += 1;
      unsubscribe();
      // Bounded, so that the old behaviour fails the test instead of hanging it.
      if (calls < 5) unsubscribe = owner.subscribe(listener);
    };
    unsubscribe = owner.subscribe(listener);
    changes[0]();
    assert.equal(calls, 1);
    changes[1]();
    assert.equal(calls, 2);
  });

  it('tells a subscriber added during a change from the next change on, and skips one unsubscribed during it', () => {
    const { owner, changes } = make();
    const heard: string[] = [];
    let unsubscribeLast = () => {};
    owner.subscribe(() => {
      heard.push('first');
      unsubscribeLast();
      owner.subscribe(() => heard.push('added'));
    });
    unsubscribeLast = owner.subscribe(() => heard.push('last'));
    changes[0]();
    assert.deepEqual(heard, ['first']);
  });
}
