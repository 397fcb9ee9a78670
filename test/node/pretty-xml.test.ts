// The console's XML view: one element per line, indented, with only the whitespace between tags changed; anything it
// cannot lay out without changing what a reader would take the document to hold is left to be shown as sent.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { prettyXml } from '../../src/components/try-it-console/pretty-xml.js';

/** The document without the whitespace-only text between tags: what a layout may change, and all it may. */
const withoutLayout = (xml: string) => xml.replace(/>[ \t\r\n]+</g, '><').replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');

describe('prettyXml', () => {
  it('lays out a SOAP answer one element per line, attributes, CDATA, comments and the declaration as sent', () => {
    const sent =
      '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>' +
      '<m:Price currency=\'EUR\'>1.90</m:Price><m:Note text="a > b" /><m:Empty></m:Empty><m:Desc><![CDATA[<b>x</b> & y]]></m:Desc>' +
      '<!-- cached --><m:Padded>  two spaces  </m:Padded></soap:Body></soap:Envelope>';
    assert.equal(
      prettyXml(sent),
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">',
        '  <soap:Body>',
        "    <m:Price currency='EUR'>1.90</m:Price>",
        '    <m:Note text="a > b" />',
        '    <m:Empty></m:Empty>',
        '    <m:Desc><![CDATA[<b>x</b> & y]]></m:Desc>',
        '    <!-- cached -->',
        '    <m:Padded>  two spaces  </m:Padded>',
        '  </soap:Body>',
        '</soap:Envelope>',
      ].join('\n'),
    );
  });

  it('lays out a document already laid out another way (tabs, CRLF, a DOCTYPE) the same way, changing only whitespace between tags', () => {
    const sent = '<!DOCTYPE feed SYSTEM "feed.dtd">\r\n<feed>\r\n\t<entry id="1">\r\n\t\t<title>First &amp; last</title>\r\n\t</entry>\r\n\t<entry id="2"/>\r\n</feed>\r\n';
    const laidOut = prettyXml(sent)!;
    assert.equal(laidOut, '<!DOCTYPE feed SYSTEM "feed.dtd">\n<feed>\n  <entry id="1">\n    <title>First &amp; last</title>\n  </entry>\n  <entry id="2"/>\n</feed>');
    assert.equal(withoutLayout(laidOut), withoutLayout(sent));
  });

  it('keeps everything but the whitespace between tags over many generated documents', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const element = (depth: number): string => {
      const name = ['a', 'ns:b', 'c-d', 'e.f'][Math.floor(next() * 4)]!;
      const attributes = next() < 0.5 ? ` k="${['', 'v', 'x > y', "it's"][Math.floor(next() * 4)]}"` : '';
      const pick = next();
      if (pick < 0.2) return `<${name}${attributes}/>`;
      if (pick < 0.5 || depth > 4) return `<${name}${attributes}>${['', ' ', 'text', ' 1 &lt; 2 ', '<![CDATA[<x/>]]>', 'é ☕'][Math.floor(next() * 6)]}</${name}>`;
      const space = () => ['', '\n', '\n  ', '\t', ' \r\n'][Math.floor(next() * 5)]!;
      return `<${name}${attributes}>${Array.from({ length: 1 + Math.floor(next() * 3) }, () => space() + element(depth + 1)).join('')}${space()}</${name}>`;
    };
    for (let round = 0; round < 300; round += 1) {
      const sent = element(0);
      const laidOut = prettyXml(sent);
      assert.ok(laidOut !== undefined, sent);
      assert.equal(withoutLayout(laidOut), withoutLayout(sent), sent);
      // Each line holds one token, or an element holding only text; indentation is two spaces a level.
      for (const line of laidOut.split('\n')) assert.match(line, /^(?: {2})*<[^ ]/, sent);
    }
  });

  it('leaves alone what a layout would change the meaning of, or what is not well-formed XML', () => {
    const refused = {
      'text beside child elements (XHTML)': '<p>Hello <b>world</b></p>',
      'a no-break space beside a child element, which is text in XML': '<p>\u00A0<b>x</b></p>',
      'a comment inside text': '<a>x<!-- c -->y</a>',
      'xml:space="preserve"': '<a xml:space="preserve"><b/> <c/></a>',
      'a DOCTYPE with an internal subset': '<!DOCTYPE a [<!ENTITY x "y">]><a/>',
      'tags that do not pair up': '<a><b></a></b>',
      'an element left open (a cut body)': '<a><b>1</b>',
      'a close tag with nothing open': '<a/></a>',
      'a stray "<"': '<a>1 < 2</a>',
      'text after the root': '<a/>trailing',
      'plain text': 'not xml',
    };
    for (const [what, xml] of Object.entries(refused)) assert.equal(prettyXml(xml), undefined, what);
  });

  it('gives up when the layout would be longer than the limit, and indents no deeper than 64 levels', () => {
    const deep = `${'<a>'.repeat(100)}${'</a>'.repeat(100)}`;
    assert.equal(prettyXml(deep, deep.length), undefined);
    const lines = prettyXml(deep)!.split('\n');
    assert.equal(lines.length, 199, 'the innermost <a></a> on one line');
    assert.equal(Math.max(...lines.map((line) => line.length - line.trimStart().length)), 128);
  });
});
