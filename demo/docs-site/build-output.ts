// The docs site serves the package's build; without it there is nothing to show, so say how to make it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** `dist/` lacks a file the demo serves or bundles. */
export class MissingBuildError extends Error {
  readonly code = 'ERR_DEMO_MISSING_BUILD';

  constructor(readonly missing: string) {
    super(`The demo needs the package's build, but ${missing} does not exist. Run \`npm run build\` first (\`npm start\` does it for you).`);
    this.name = 'MissingBuildError';
  }
}

/** The files the pages load: the standalone bundle and the ESM entry the npm-import page bundles from. */
export const REQUIRED_BUILD_FILES = ['try-it-console.bundle.js', 'index.js'];

export function checkBuildOutput(distDir: string): void {
  for (const file of REQUIRED_BUILD_FILES) {
    const path = join(distDir, file);
    if (!existsSync(path)) throw new MissingBuildError(path);
  }
}
