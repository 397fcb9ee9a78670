// A Rollup plugin that shrinks the source indentation inside Lit's html`…` templates, which a JS minifier leaves as
// written. Rendering stays the same: a run of whitespace holding a line break keeps only its line breaks, and
// "\n      " and "\n" render alike wherever white-space collapses (normal, nowrap, pre-line). Left as written: text
// inside <pre>, <textarea>, <script> and <style>, quoted attribute values, and every run without a line break (the
// space in `${a} ${b}` is content). HTML comments without a binding go: they are notes for the source's readers.
// Line breaks are kept so that the bundle's source map stays right line by line.
// Template text inside an element styled white-space: pre or pre-wrap would lose its indentation: keep such text in
// bindings (today only bindings sit in those elements).

const RAW_TEXT_ELEMENTS = new Set(['pre', 'textarea', 'script', 'style']);

function walk(node, visit) {
  visit(node);
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const child of value) if (child && typeof child.type === 'string') walk(child, visit);
    if (value && typeof value.type === 'string') walk(value, visit);
  }
}

/** Local names bound to lit's `html` in this module (`import { html } from 'lit'`, `html as h`…). */
function litHtmlNames(ast) {
  const names = new Set();
  for (const statement of ast.body) {
    if (statement.type !== 'ImportDeclaration' || !/^lit(?:$|\/|-html)/.test(statement.source.value)) continue;
    for (const specifier of statement.specifiers) {
      if (specifier.type === 'ImportSpecifier' && (specifier.imported.name ?? specifier.imported.value) === 'html') names.add(specifier.local.name);
    }
  }
  return names;
}

/**
 * The minified raw text of each quasi of one template. The HTML state (text, inside a tag, inside a quoted value,
 * inside a raw-text element) carries across the bindings, as it does when Lit joins the strings.
 */
export function minifyHtmlQuasis(quasis) {
  let state = 'text';
  let quote = '';
  let rawElement = '';
  return quasis.map((raw, quasiIndex) => {
    let out = '';
    let i = 0;
    while (i < raw.length) {
      const rest = raw.slice(i);
      if (state === 'raw') {
        const close = rest.search(new RegExp(`</${rawElement}[\\s>]`, 'i'));
        if (close === -1) { out += rest; break; }
        out += rest.slice(0, close);
        i += close;
        state = 'text';
        continue;
      }
      if (state === 'quoted') {
        const end = rest.indexOf(quote);
        if (end === -1) { out += rest; break; }
        out += rest.slice(0, end + 1);
        i += end + 1;
        state = 'tag';
        continue;
      }
      if (state === 'comment') {
        const end = rest.indexOf('-->');
        if (end === -1) { out += rest; break; }
        out += rest.slice(0, end + 3);
        i += end + 3;
        state = 'text';
        continue;
      }
      // HTML's white space only: a no-break space (U+00A0) or another Unicode space beside a line break is content.
      const whitespace = /^[ \t\n\r\f]+/.exec(rest);
      if (whitespace) {
        const run = whitespace[0];
        out += /[\n\r]/.test(run) ? run.replace(/[^\n\r]/g, '') : run;
        i += run.length;
        continue;
      }
      if (state === 'text') {
        const comment = /^<!--[\s\S]*?-->/.exec(rest);
        if (comment) { i += comment[0].length; continue; }
        // A comment that a binding splits is Lit's business: keep it, and everything after it in this quasi.
        if (rest.startsWith('<!--')) { out += rest; if (quasiIndex < quasis.length - 1) state = 'comment'; break; }
        const open = /^<([a-zA-Z][\w-]*)/.exec(rest);
        if (open) {
          rawElement = RAW_TEXT_ELEMENTS.has(open[1].toLowerCase()) ? open[1].toLowerCase() : '';
          state = 'tag';
          out += open[0];
          i += open[0].length;
          continue;
        }
        out += raw[i++];
        continue;
      }
      // Inside a tag.
      if (raw[i] === '"' || raw[i] === "'") {
        quote = raw[i];
        state = 'quoted';
        out += raw[i++];
        continue;
      }
      if (raw[i] === '>') {
        state = rawElement && !raw.slice(0, i).endsWith('/') ? 'raw' : 'text';
        out += raw[i++];
        continue;
      }
      out += raw[i++];
    }
    return out;
  });
}

export function minifyHtmlLiterals({ include = /\/dist\/components\// } = {}) {
  return {
    name: 'minify-html-literals',
    transform(code, id) {
      if (!include.test(id) || !/\bhtml\s*`/.test(code)) return null;
      const ast = this.parse(code);
      const names = litHtmlNames(ast);
      if (names.size === 0) return null;
      const edits = [];
      walk(ast, (node) => {
        if (node.type !== 'TaggedTemplateExpression' || node.tag.type !== 'Identifier' || !names.has(node.tag.name)) return;
        const { quasis } = node.quasi;
        const raws = quasis.map((quasi) => code.slice(quasi.start, quasi.end));
        if (raws.some((raw, index) => raw !== quasis[index].value.raw)) this.error(`minify-html-literals: unexpected template positions in ${id}.`);
        minifyHtmlQuasis(raws).forEach((text, index) => edits.push({ start: quasis[index].start, end: quasis[index].end, text }));
      });
      if (edits.length === 0) return null;
      edits.sort((a, b) => b.start - a.start);
      let out = code;
      for (const { start, end, text } of edits) out = out.slice(0, start) + text + out.slice(end);
      return { code: out, map: null };
    },
  };
}
