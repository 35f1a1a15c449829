// The page's files other than TypeScript (its CSS) copied from src/ into dist/ beside the compiled modules. Each file
// is written under a temporary name and renamed into place: two builds at once (two `npm run dev` side by side) then
// never remove or half-write a file the other is copying, which fs.cpSync's unlink-then-copy does.
import { copyFileSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyAssets(source, target);
    else if (!/\.tsx?$/.test(entry.name)) {
      mkdirSync(to, { recursive: true });
      const temporary = `${target}.${process.pid}.tmp`;
      copyFileSync(source, temporary);
      renameSync(temporary, target);
    }
  }
}

copyAssets('src', 'dist');
