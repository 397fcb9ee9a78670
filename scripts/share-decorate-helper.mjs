// A Rollup plugin that keeps one copy of TypeScript's `__decorate` helper in the bundle. tsc (experimentalDecorators,
// no tslib) writes the helper at the top of every module that uses a decorator, so the bundle carried one copy per
// element. A copy that is exactly tsc's helper becomes an import of that same helper from one virtual module; any
// other text (another tsc's helper) is left as it is. Line breaks are kept so that the source map stays right.

const HELPER_ID = '\0try-it-console:decorate-helper';
const HELPER_DECLARATION = `var __decorate = (this && this.__decorate) || function (decorators, target, key, desc) {
    var c = arguments.length, r = c < 3 ? target : desc === null ? desc = Object.getOwnPropertyDescriptor(target, key) : desc, d;
    if (typeof Reflect === "object" && typeof Reflect.decorate === "function") r = Reflect.decorate(decorators, target, key, desc);
    else for (var i = decorators.length - 1; i >= 0; i--) if (d = decorators[i]) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    return c > 3 && r && Object.defineProperty(target, key, r), r;
};`;

export function shareDecorateHelper() {
  return {
    name: 'share-decorate-helper',
    resolveId(id) {
      return id === HELPER_ID ? HELPER_ID : null;
    },
    load(id) {
      // In a module, top-level `this` is undefined, so the declaration comes down to the function itself.
      return id === HELPER_ID ? `export const __decorate = ${HELPER_DECLARATION.slice(HELPER_DECLARATION.indexOf('function'))}\n` : null;
    },
    transform(code, id) {
      if (id === HELPER_ID || !code.includes(HELPER_DECLARATION)) return null;
      const lineBreaks = '\n'.repeat(HELPER_DECLARATION.split('\n').length - 1);
      return { code: code.replace(HELPER_DECLARATION, `import { __decorate } from '${HELPER_ID}';${lineBreaks}`), map: null };
    },
  };
}
