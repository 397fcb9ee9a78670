// What a browser build gets for `try-it-console/webhook`: a loud failure instead of a bundle full of Node built-ins.
throw new Error(
  'try-it-console/webhook is Node-only: it signs and sends webhooks with node:crypto and undici, which browsers do not have. ' +
    'Import it from server-side code, and use "try-it-console" (the console elements) in the browser.',
);

export {};
