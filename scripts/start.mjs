// `npm start`: the demo docs page. Until the elements and the demo land, it says what is coming.
console.log(`try-it-console: the demo docs page (the live console, the proxy and a webhook receiver) is not built yet.
Today the package ships its plain-TS core: import { EnvironmentManager, History } from 'try-it-console/core'.
Run \`npm test\` to see everything that works so far.`);
