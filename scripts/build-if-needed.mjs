// Compiles src/ to dist/ when any source file is newer than the last build (npm start, db:migrate).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const stamp = 'dist/.build-stamp';

function newest(dir) {
  let max = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    const t = entry.isDirectory() ? newest(p) : statSync(p).mtimeMs;
    if (t > max) max = t;
  }
  return max;
}

const sources = Math.max(newest('src'), statSync('tsconfig.json').mtimeMs, statSync('tsconfig.build.json').mtimeMs);
if (!existsSync(stamp) || statSync(stamp).mtimeMs < sources) {
  process.stdout.write('Building (tsc)…\n');
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
  writeFileSync(stamp, new Date().toISOString());
}
