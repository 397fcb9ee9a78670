// A page's code sample, taken from the script that runs on it: the lines between `// #region sample` and
// `// #endregion`, so that what the page shows cannot drift from what it runs.
import { readFile } from 'node:fs/promises';
import { escapeMarkup } from '../http/markup.js';

const REGION_START = '// #region sample';
const REGION_END = '// #endregion';
/** Between two regions: the lines left out. */
const LEFT_OUT = '\n\n// …\n\n';

/** A page script's sample regions are missing or unbalanced. */
export class CodeSampleError extends Error {
  readonly code = 'ERR_DEMO_CODE_SAMPLE';

  constructor(readonly file: string, detail: string) {
    super(`The code sample in ${file} cannot be read: ${detail}. Mark each part the page shows with a "${REGION_START}" line before it and a "${REGION_END}" line after it.`);
    this.name = 'CodeSampleError';
  }
}

/** The sample regions of `source` (the text of `file`), as plain text. */
export function codeSample(source: string, file: string): string {
  const regions: string[][] = [];
  let region: string[] | undefined;
  for (const [index, line] of source.split('\n').entries()) {
    const marker = line.trim();
    if (marker === REGION_START) {
      if (region) throw new CodeSampleError(file, `line ${index + 1} starts a region inside another`);
      region = [];
    } else if (marker === REGION_END && region) {
      regions.push(region);
      region = undefined;
    } else {
      region?.push(line);
    }
  }
  if (region) throw new CodeSampleError(file, 'its last region has no end');
  if (regions.length === 0) throw new CodeSampleError(file, 'it has no region');
  return regions.map((lines) => lines.join('\n')).join(LEFT_OUT);
}

/** The sample of the script at `path`, escaped to go inside a page's `<code>`. */
export async function readCodeSample(path: string): Promise<string> {
  return escapeMarkup(codeSample(await readFile(path, 'utf8'), path));
}
