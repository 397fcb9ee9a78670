// Files from a directory, by URL path, never outside it, and only of the types the demo serves.
import { readFile } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/**
 * Reads `relativePath` (already URL-decoded) under `root`; `undefined` when it is missing, outside `root`, or
 * of a type not served.
 */
export async function readStaticFile(root: string, relativePath: string): Promise<StaticFile | undefined> {
  if (relativePath.includes('\0')) return undefined;
  const base = resolve(root);
  const path = resolve(base, `.${sep}${relativePath}`);
  if (!path.startsWith(base + sep)) return undefined;
  const type = CONTENT_TYPES[extname(path)];
  if (!type) return undefined;
  try {
    return { body: await readFile(path), type };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}
