// `resolve` against postman-collection's own substitution, on the same templates and variables;
// then how resolve scales when the input grows tenfold.
import postman from 'postman-collection';
import { EnvironmentManager } from '../src/core/index.js';
import { interleavedOpsPerSecond, printRatio } from './measure.js';

const variables: Record<string, string> = {
  base_url: 'https://api.example.com',
  version: 'v2',
  api_path: '{{base_url}}/{{version}}',
  user_id: '42',
  token: 'eyJhbGciOiJIUzI1NiJ9.payload.signature',
  tenant: 'acme',
};
const manager = new EnvironmentManager({ name: 'bench', variables });
const postmanVariables = new postman.VariableScope({ values: Object.entries(variables).map(([key, value]) => ({ key, value })) }).toObject(false, true);
const postmanResolve = (template: string) => postman.Property.replaceSubstitutions(template, postmanVariables);

const body = (size: number) =>
  JSON.stringify(Array.from({ length: size }, (_, i) => ({ id: i, owner: '{{user_id}}', tenant: '{{tenant}}', note: 'plain text without placeholders' })));

const templates: Record<string, string> = {
  'URL, 3 placeholders': '{{base_url}}/{{version}}/users/{{user_id}}?tenant={{tenant}}',
  'nested URL': '{{api_path}}/users/{{user_id}}',
  'header value': 'Bearer {{token}}',
  'JSON body, 4 KB': body(40),
  'JSON body with a missing variable': `${body(40)}{{not_defined}}`,
};

for (const [name, template] of Object.entries(templates)) {
  if (manager.resolve(template) !== postmanResolve(template)) throw new Error(`results differ for ${name}`);
  const { ours, postman } = interleavedOpsPerSecond({ ours: () => manager.resolve(template), postman: () => postmanResolve(template) });
  printRatio(`resolve, ${name}`, ours, postman, '>= 10x postman-collection');
}

const small = body(100);
const large = body(1_000);
const { small: smallRate, large: largeRate } = interleavedOpsPerSecond({ small: () => manager.resolve(small), large: () => manager.resolve(large) });
const growth = large.length / small.length;
console.log(`resolve scaling: input ${growth.toFixed(1)}x larger (${small.length} -> ${large.length} chars) costs ${(smallRate / largeRate).toFixed(2)}x the time (goal <= ${(growth * 1.2).toFixed(1)}x)`);
