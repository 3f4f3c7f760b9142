import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// DejaVu Sans (Bitstream Vera licence, free to embed) covers Latin, Greek, Cyrillic, Hebrew and
// Arabic letters. Found at run time, not bundled: from the project's node_modules (cwd is the
// project root for npm start, next start and the tests), else through Node's resolution.

export interface FontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
}

let cached: FontFiles | undefined;

function fontPath(file: string): string {
  const local = path.join(process.cwd(), 'node_modules', 'dejavu-fonts-ttf', 'ttf', file);
  if (existsSync(local)) return local;
  const require = createRequire(path.join(process.cwd(), 'package.json'));
  return path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', file);
}

export function fontFiles(): FontFiles {
  cached ??= {
    regular: new Uint8Array(readFileSync(fontPath('DejaVuSans.ttf'))),
    bold: new Uint8Array(readFileSync(fontPath('DejaVuSans-Bold.ttf'))),
  };
  return cached;
}
