// The page's files other than TypeScript (its CSS) copied from src/ into dist/ beside the compiled modules, each
// stylesheet with a declaration beside it (`<name>.d.css.ts`, TypeScript's name for the declaration of a file of another
// kind): the compiled declarations keep the modules' `import './x.css'`, which an app's type check then resolves. Each file
// is written under a temporary name and renamed into place: two builds at once (two `npm run dev` side by side) then
// never remove or half-write a file the other is copying, which fs.cpSync's unlink-then-copy does.
import { copyFileSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
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
      if (entry.name.endsWith('.css')) {
        const declaration = target.replace(/\.css$/, '.d.css.ts');
        writeFileSync(`${declaration}.${process.pid}.tmp`, 'export {};\n');
        renameSync(`${declaration}.${process.pid}.tmp`, declaration);
      }
    }
  }
}

copyAssets('src', 'dist');
