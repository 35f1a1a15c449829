import { buildPage, pageWeight } from './packages/kit-tests/helpers/page-build.ts';
import { readFileSync, writeFileSync } from 'node:fs';
const out = process.argv[2]!;
await buildPage({ outDir: out, sourcemap: 'hidden' });
const result: Record<string, Record<string, number>> = {};
for (const page of ['first-screens/background-check.en.html', 'first-screens/work-authorization.es.html']) {
  const w = pageWeight(out, readFileSync(`${out}/${page}`, 'utf8'), process.cwd());
  const all: Record<string, number> = { TOTAL_GZIP: w.total };
  for (const s of w.scripts) for (const [m, b] of s.modules) all[m] = (all[m] ?? 0) + b;
  result[page] = all;
}
writeFileSync(`${out}.json`, JSON.stringify(result));
