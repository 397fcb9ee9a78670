// Persisted `add` in Chromium with 10,000 entries stored vs with 50: one record per entry should make
// the two cost the same.
import { runInChromium } from './browser.js';

const { at50, at10000 } = await runInChromium<{ at50: number; at10000: number }>(new URL('./history-idb.page.ts', import.meta.url).pathname);
console.log(`persisted add (mean of 300): ${at10000.toFixed(3)} ms at 10,000 stored vs ${at50.toFixed(3)} ms at 50 = ${(at10000 / at50).toFixed(2)}x (goal <= 1.5x)`);
