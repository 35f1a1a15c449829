import { existsSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { normalizePath } from 'vite';
import { escapeRegExp } from './bundle-chunks.ts';

/**
 * The page package's modules the build singles out, by their path: its sources where the app resolves the package to
 * them (this repository, through tsconfig paths), its compiled dist/ where the app installed it from npm.
 */
const pagePackage = realpathSync(dirname(createRequire(import.meta.url).resolve('@partner-task-kit/page/package.json')));
const pageSource = existsSync(join(pagePackage, 'src/app-root.tsx'));
const engineSource = normalizePath(join(pagePackage, pageSource ? 'src' : 'dist'));

/** A module of the page package by its path in src/ without extension, as the app's build names it. */
export const engineModule = (name: string, extension: 'ts' | 'tsx') => `${engineSource}/${name}.${pageSource ? extension : 'js'}`;

/** The shell's chunk: packages/page/src/app-root.tsx, which mount-task-page.ts imports dynamically, and what it runs (shellChunk). */
export const appModule = engineModule('app-root', 'tsx');

/** What each workflow's module of screens calls (packages/page/src/workflows/folder-screens.tsx): part of the shell's chunk. */
export const folderScreensModule = engineModule('workflows/folder-screens', 'tsx');

/** The shell's texts in each language (packages/page/src/ui/i18n/locale-context.tsx loads them). */
export const shellTextsModule = new RegExp(`^${escapeRegExp(`${engineSource}/ui/i18n/shell-texts.`)}[a-z]+\\.${pageSource ? 'ts' : 'js'}$`);
