// The console's JSON view: laid out as JSON.stringify(value, null, 2) would, but every value kept as the server wrote it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prettyJson } from '../../src/components/try-it-console/pretty-json.js';

/** A small deterministic generator (mulberry32), so a failure names a reproducible document. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AWKWARD_STRINGS = ['', 'plain', 'quote " inside', 'backslash \\ inside', 'ends with backslash \\', '\\"', '{[,:]}', 'tab\tnew\nline', 'café ☕ 👩‍💻', '\u2028\u2029', '\u0000\u001f'];

/** A random JSON value of bounded depth and size. */
function value(next: () => number, depth: number): unknown {
  const pick = Math.floor(next() * (depth > 3 ? 4 : 6));
  if (pick === 0) return AWKWARD_STRINGS[Math.floor(next() * AWKWARD_STRINGS.length)];
  if (pick === 1) return Math.round((next() - 0.5) * 1e6) / 100;
  if (pick === 2) return [true, false, null][Math.floor(next() * 3)];
  if (pick === 3) return Math.floor(next() * 1000);
  if (pick === 4) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(next() * 4) }, (_, i) => [`${AWKWARD_STRINGS[i % AWKWARD_STRINGS.length]}${i}`, value(next, depth + 1)]));
}

/** `JSON.stringify` output with random whitespace between tokens, as servers send it (minified, or laid out their way). */
function respaced(json: string, next: () => number): string {
  const blanks = [' ', '\n', '\t', '\r\n  ', ''];
  let inString = false;
  let out = '';
  for (let i = 0; i < json.length; i += 1) {
    const character = json[i]!;
    out += character;
    if (character === '"' && !isEscaped(json, i)) inString = !inString;
    if (!inString && '{}[],:'.includes(character)) out += blanks[Math.floor(next() * blanks.length)];
  }
  return out;
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  while (text[index - 1 - backslashes] === '\\') backslashes += 1;
  return backslashes % 2 === 1;
}

describe('prettyJson', () => {
  it('lays out documents exactly as JSON.stringify(value, null, 2), whatever whitespace they came with', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const next = random(seed);
      const document = value(next, 0);
      const sent = respaced(JSON.stringify(document), next);
      assert.equal(prettyJson(sent), JSON.stringify(document, null, 2), `seed ${seed}: ${sent}`);
    }
  });

  it('keeps numbers, escapes and repeated keys as written, where parsing would change them', () => {
    const sent = '{"id":12345678901234567890,"price":1.10,"big":1e400,"exp":1E3,"neg":-0,"name":"caf\\u00e9","id":2}';
    assert.equal(
      prettyJson(sent),
      '{\n  "id": 12345678901234567890,\n  "price": 1.10,\n  "big": 1e400,\n  "exp": 1E3,\n  "neg": -0,\n  "name": "caf\\u00e9",\n  "id": 2\n}',
    );
  });

  it('copes with megabyte strings full of escapes (no regex backtracking blow-up)', () => {
    const document = { escaped: 'a\\"b'.repeat(300_000), plain: 'x'.repeat(1 << 20) };
    assert.equal(prettyJson(JSON.stringify(document)), JSON.stringify(document, null, 2));
  });

  it('indents 64 levels deep and writes deeper ones on one line, as JSON.stringify(value) would, whatever their whitespace', () => {
    for (let seed = 1; seed <= 100; seed += 1) {
      const next = random(seed);
      const wrap = (content: unknown, levels: number) => {
        for (let level = 0; level < levels; level += 1) content = next() < 0.5 ? [content] : { [`k${level}`]: content };
        return content;
      };
      // A random document under 64 to 70 levels of arrays and objects; a mark stands for it in the indented layout.
      const deep = wrap(value(next, 0), Math.floor(next() * 7));
      const mark = JSON.stringify('\u0000deep');
      const outer = JSON.stringify(wrap(JSON.parse(mark), 64), null, 2);
      const expected = outer.replace(mark, () => JSON.stringify(deep));
      const sent = respaced(JSON.stringify(JSON.parse(expected)), next);
      assert.equal(prettyJson(sent), expected, `seed ${seed}: ${sent}`);
    }
  });

  it('keeps every value as sent past the indented levels: big integers, -0, repeated keys', () => {
    const sent = `${'['.repeat(100)}{"id": 12345678901234567890, "n": -0, "price": 1.10, "id": "a\\"b"}${']'.repeat(100)}`;
    const pretty = prettyJson(sent)!;
    assert.ok(pretty.includes('[{"id":12345678901234567890,"n":-0,"price":1.10,"id":"a\\"b"}]'), pretty);
    assert.equal(pretty.replace(/\s/g, ''), sent.replace(/\s/g, ''));
  });

  it('lays out 10,000 nested arrays (20 KB) in about as many characters, not 200 million', () => {
    const sent = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
    const pretty = prettyJson(sent)!;
    // Level n of the 64 indented ones adds two line breaks and 4n - 2 spaces: 4 × (1 + 2 + … + 64) characters in all.
    assert.equal(pretty.length, sent.length + 8_320);
    assert.equal(pretty.replace(/\s/g, ''), sent);
  });

  it('gives up once the layout passes maxLength, and gives it whole up to it', () => {
    const sent = `${'['.repeat(64)}${'1,'.repeat(100_000)}1${']'.repeat(64)}`;
    assert.equal(prettyJson(sent, 4 * sent.length), undefined);
    const small = '{"a":[1,2],"b":{"c":null}}';
    const whole = prettyJson(small)!;
    assert.equal(prettyJson(small, whole.length), whole);
    assert.equal(prettyJson(small, whole.length - 1), undefined);
  });

  it('lays out the start of a document up to where it is cut, a string cut in its middle (or its escape) included', () => {
    assert.equal(prettyJson('{"a":[1,{"b":"x\\"y'), '{\n  "a": [\n    1,\n    {\n      "b": "x\\"y');
    assert.equal(prettyJson('{"a":"cut\\'), '{\n  "a": "cut\\');
    // Never parsed, it may close what it never opened: not laid out.
    assert.equal(prettyJson('[1]]'), undefined);
    assert.equal(prettyJson("{a: '}'}"), undefined);
  });

  it('keeps empty objects and arrays on one line, and top-level scalars as they are', () => {
    assert.equal(prettyJson(' { "a" : { } , "b" : [ \n ] } '), '{\n  "a": {},\n  "b": []\n}');
    for (const scalar of ['"text"', ' 42 ', 'true', 'null', '"\\\\"']) assert.equal(prettyJson(scalar), scalar.trim());
  });
});
