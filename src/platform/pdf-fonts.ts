/** The DejaVu Sans TTFs (assets/fonts) every PDF of the service embeds, read once. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findFonts(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'assets', 'fonts');
    if (existsSync(join(candidate, 'DejaVuSans.ttf'))) return candidate;
    dir = dirname(dir);
  }
  throw new Error('assets/fonts/DejaVuSans.ttf not found');
}

let fonts: { regular: Buffer; bold: Buffer } | null = null;

export function loadFonts(): { regular: Buffer; bold: Buffer } {
  if (!fonts) {
    const dir = findFonts();
    fonts = {
      regular: readFileSync(join(dir, 'DejaVuSans.ttf')),
      bold: readFileSync(join(dir, 'DejaVuSans-Bold.ttf')),
    };
  }
  return fonts;
}
