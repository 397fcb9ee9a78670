// custom-elements.json, generated from the elements' JSDoc (`npm run build` runs it).
export default {
  globs: ['src/components/**/*.component.ts'],
  outdir: '.',
  litelement: true,
  plugins: [
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
