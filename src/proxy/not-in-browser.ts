// What a browser (or any non-Node bundler target) gets for `try-it-console/proxy`: a loud failure at import,
// instead of a server module that would break later in confusing ways.
throw new Error(
  'try-it-console/proxy is a Node-only server (the CORS proxy). Run it with `npx try-it-proxy` or import it from Node; ' +
    'in the browser, point the console\'s `corsProxy` setting at the running proxy instead.',
);

export {};
