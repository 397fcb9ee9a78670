// A Rollup plugin that minifies the CSS inside Lit's css`…` templates, which a JS minifier leaves as written.
// Only whitespace and comments go; interpolations (`${darkTokens}`) are kept as they are.

const CSS_TEMPLATE = /\bcss\s*`([^`]*)`/g;

export function minifyCss(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};,>])\s*/g, '$1')
    .replace(/:\s+/g, ':')
    .replace(/;}/g, '}')
    .trim();
}

export function minifyCssLiterals({ include = /\/dist\/components\// } = {}) {
  return {
    name: 'minify-css-literals',
    transform(code, id) {
      if (!include.test(id) || !/\bcss\s*`/.test(code)) return null;
      return { code: code.replace(CSS_TEMPLATE, (_, body) => `css\`${minifyCss(body)}\``), map: null };
    },
  };
}
