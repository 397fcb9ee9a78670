// Browsers report an event listener's error through reportError; Node has none, so tests of "reported, not
// thrown" provide one for the duration of the test.

/** Runs `body` with a `reportError` that collects what is reported, then removes it. */
export function withReportedErrors(body: (reported: unknown[]) => void): void {
  const global = globalThis as { reportError?: (error: unknown) => void };
  const reported: unknown[] = [];
  global.reportError = (error) => reported.push(error);
  try {
    body(reported);
  } finally {
    delete global.reportError;
  }
}
