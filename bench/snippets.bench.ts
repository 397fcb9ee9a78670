// Snippet generation against @scalar/snippetz and httpsnippet on the same request (5 headers, 1 KB JSON body),
// per language, as ratios of medians of interleaved rounds in this one run; then the gzip size of a bundle of
// the snippet generator alone.
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { HTTPSnippet, type HarRequest } from 'httpsnippet';
import { shellCurl } from '@scalar/snippetz/plugins/shell/curl';
import { jsFetch } from '@scalar/snippetz/plugins/js/fetch';
import { goNative } from '@scalar/snippetz/plugins/go/native';
import { pythonRequests } from '@scalar/snippetz/plugins/python/requests';
import { phpCurl } from '@scalar/snippetz/plugins/php/curl';
import { SNIPPET_LANGUAGES, SnippetGenerator, generateTemplateSnippet, type SnippetLanguage, type SnippetRequest } from '../src/core/index.js';
import { interleavedOpsPerSecond, median, printRatio } from './measure.js';

const body = JSON.stringify({ items: Array.from({ length: 24 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a', 'b'] })) });
const request: SnippetRequest = {
  method: 'POST',
  url: 'https://api.example.com/v1/orders?expand=items&limit=10',
  headers: {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.payload.signature',
    'X-Request-Id': '7f1c2a9e-5b1d-4c36-9a51-0c2f1e6d8b3a',
    'X-Tenant': 'acme',
  },
  body,
};
const har = {
  method: request.method,
  url: request.url,
  httpVersion: 'HTTP/1.1',
  headers: Object.entries(request.headers!).map(([name, value]) => ({ name, value })),
  queryString: [],
  cookies: [],
  headersSize: -1,
  bodySize: -1,
  postData: { mimeType: 'application/json', text: body },
} as unknown as HarRequest;
const scalarRequest = { method: request.method, url: request.url, headers: har.headers, postData: har.postData };

const snippetz: Record<SnippetLanguage, { generate(request: typeof scalarRequest): string | undefined }> = {
  curl: shellCurl, javascript: jsFetch, go: goNative, python: pythonRequests, php: phpCurl,
};
const httpsnippetTargets: Record<SnippetLanguage, [string, string]> = {
  curl: ['shell', 'curl'], javascript: ['javascript', 'fetch'], go: ['go', 'native'], python: ['python', 'requests'], php: ['php', 'curl'],
};

console.log(`request: ${request.method}, 5 headers, ${body.length}-byte JSON body; medians of 7 interleaved rounds of 200 ms`);
const generator = new SnippetGenerator();
for (const language of SNIPPET_LANGUAGES) {
  const [target, client] = httpsnippetTargets[language];
  const { ours, scalar, httpsnippet } = interleavedOpsPerSecond({
    ours: () => generator.generate(request, language),
    scalar: () => snippetz[language].generate(scalarRequest),
    // httpsnippet normalises the HAR in its constructor, so each snippet costs a construction and a convert.
    httpsnippet: () => new HTTPSnippet(har).convert(target as 'shell', client),
  });
  printRatio(`${language.padEnd(10)} vs @scalar/snippetz`, ours, scalar, '>= 20x');
  printRatio(`${language.padEnd(10)} vs httpsnippet      `, ours, httpsnippet, 'faster');
}

// A template whose URL, a header name and body hold a megabyte run of text the stand-ins for its placeholders must
// not spell, against the same with letters that spell none, in interleaved rounds. Choosing the stand-ins was
// quadratic in such a run (minutes for a megabyte).
const runs = { '"tplvxxx…"': 'tplv', '"aaaaxxx…"': 'aaaa' };
const templateTimes = Object.fromEntries(Object.keys(runs).map((label) => [label, [] as number[]]));
for (let round = 0; round < 7; round += 1) {
  for (const [label, start] of Object.entries(runs)) {
    const run = `${start}${'x'.repeat(1 << 20)}`;
    const template: SnippetRequest = { method: 'POST', url: `{{base_url}}/${run}/{{id}}`, headers: { [`X-${run}`]: '1', 'X-{{name}}': run }, body: run };
    const started = performance.now();
    generateTemplateSnippet(generator, template, 'javascript');
    templateTimes[label]!.push(performance.now() - started);
  }
}
for (const [label, times] of Object.entries(templateTimes)) {
  console.log(`template snippet, javascript, 1 MiB of ${label} in the URL, a header name and the body: ${median(times).toFixed(1)} ms (median of 7 interleaved)`);
}

async function gzipBytes(contents: string, resolveDir: string): Promise<number> {
  const result = await build({ stdin: { contents, resolveDir, loader: 'ts' }, bundle: true, minify: true, format: 'esm', write: false, platform: 'neutral', logLevel: 'silent' });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

const ourSize = await gzipBytes("export * from './src/core/snippets/index.ts';", process.cwd());
const scalarSize = await gzipBytes(
  ['shell/curl', 'js/fetch', 'go/native', 'python/requests', 'php/curl'].map((p) => `export * from '@scalar/snippetz/plugins/${p}';`).join('\n'),
  process.cwd(),
);
console.log(`bundle of the snippet generator alone (esbuild, minified, gzip -9): ${ourSize.toLocaleString('en-US')} bytes (goal < 5,000)`);
console.log(`bundle of @scalar/snippetz with only these five plugins, same way:   ${scalarSize.toLocaleString('en-US')} bytes`);
