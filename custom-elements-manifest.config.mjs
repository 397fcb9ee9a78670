// custom-elements.json, generated from the elements' JSDoc (`npm run build` runs it).
import { readFileSync } from 'node:fs';

/** The `@cssprop` lines of a source file's JSDoc, as manifest entries. */
function documentedCssProperties(file) {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  return [...source.matchAll(/^ \* @cssprop (--[\w-]+) - (.+)$/gm)].map(([, name, description]) => ({ name, description }));
}

// Shared style sheets document their custom properties once; each element lists those of the sheets it uses.
const SHARED_SHEETS = [
  { name: 'themeStyles', file: './src/components/theme.styles.ts' },
  { name: 'highlightStyles', file: './src/components/highlight.styles.ts' },
];

export default {
  globs: ['src/components/**/*.component.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
    {
      // Custom properties inherit through shadow roots, so an element also takes those of the shared sheets in its
      // `styles` and of the elements it renders (`<code-snippet>` inside `<try-it-console>`).
      name: 'inherited-css-properties',
      packageLinkPhase({ customElementsManifest }) {
        const elements = customElementsManifest.modules.flatMap((module) => (module.declarations ?? []).filter((d) => d.customElement).map((declaration) => ({ module, declaration })));
        const own = new Map(elements.map(({ declaration }) => [declaration.tagName, declaration.cssProperties ?? []]));
        for (const { module, declaration } of elements) {
          const source = readFileSync(new URL(`./${module.path}`, import.meta.url), 'utf8');
          const properties = [
            ...(declaration.cssProperties ?? []),
            ...SHARED_SHEETS.filter((sheet) => new RegExp(`styles = \\[[^\\]]*\\b${sheet.name}\\b`).test(source)).flatMap((sheet) => documentedCssProperties(sheet.file)),
            // An element it renders is one whose define module it imports.
            ...[...own].filter(([tag]) => source.includes(`import '../${tag}/${tag}.js';`)).flatMap(([, inner]) => inner),
          ];
          declaration.cssProperties = [...new Map(properties.map((property) => [property.name, property])).values()];
        }
      },
    },
    {
      // A private field's attribute is not the element's to offer: <try-it-console>'s `config` attribute only explains
      // a framework's "[object Object]". Listed, tooling offered config="…" and typed it as text beside the property.
      name: 'public-attributes-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            const hidden = new Set((declaration.members ?? []).filter((member) => member.privacy && member.privacy !== 'public').map((member) => member.name));
            for (const member of declaration.members ?? []) if (hidden.has(member.name)) delete member.attribute;
            if (declaration.attributes) declaration.attributes = declaration.attributes.filter((attribute) => !hidden.has(attribute.fieldName));
          }
        }
      },
    },
    {
      // The analyzer guesses event names from `dispatchEvent(new X(arg))`, reading `arg` as the name; our
      // events are typed classes, so the `@fires` JSDoc is the truth and the guesses go.
      name: 'documented-events-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            if (declaration.events) declaration.events = declaration.events.filter((event) => event.name?.startsWith('tic-'));
          }
        }
      },
    },
  ],
};
