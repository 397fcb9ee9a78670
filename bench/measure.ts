// Shared by the benchmarks: a fixed-time loop that reports operations per second. Timings are printed,
// never asserted; the ratios matter because both sides are measured in the same run on the same machine.

/** Runs `fn` repeatedly for about `milliseconds` (after a short warm-up) and returns operations per second. */
export function opsPerSecond(fn: () => unknown, milliseconds = 1_000): number {
  const warmUntil = performance.now() + Math.min(200, milliseconds / 4);
  while (performance.now() < warmUntil) fn();
  let operations = 0;
  const start = performance.now();
  let elapsed = 0;
  // Check the clock every few calls only, so cheap operations are not dominated by performance.now().
  while (elapsed < milliseconds) {
    for (let i = 0; i < 16; i += 1) fn();
    operations += 16;
    elapsed = performance.now() - start;
  }
  return (operations * 1_000) / elapsed;
}

/** The middle value (the upper one of an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Operations per second of each side, as the median of interleaved rounds: every round measures every side once,
 * in a rotating order, so drift in the machine's load (large on a shared 2-core machine) falls on all sides alike.
 */
export function interleavedOpsPerSecond<Side extends string>(sides: Record<Side, () => unknown>, { rounds = 7, milliseconds = 200 } = {}): Record<Side, number> {
  const order = Object.entries(sides) as Array<[Side, () => unknown]>;
  const rates = Object.fromEntries(order.map(([side]) => [side, [] as number[]])) as Record<Side, number[]>;
  for (let round = 0; round < rounds; round += 1) {
    for (let i = 0; i < order.length; i += 1) {
      const [side, fn] = order[(round + i) % order.length]!;
      rates[side].push(opsPerSecond(fn, milliseconds));
    }
  }
  return Object.fromEntries(order.map(([side]) => [side, median(rates[side])])) as Record<Side, number>;
}

export function formatRate(rate: number): string {
  return `${Math.round(rate).toLocaleString('en-US')} ops/s`;
}

/** One line: `label: ours vs anchor = ratio× (goal)`. */
export function printRatio(label: string, ours: number, anchor: number, goal: string): void {
  console.log(`${label}: ${formatRate(ours)} vs ${formatRate(anchor)} = ${(ours / anchor).toFixed(2)}x (goal ${goal})`);
}
