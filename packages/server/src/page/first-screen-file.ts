import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Negotiator from 'negotiator';
import {
  firstScreenFile,
  openingScreenFile,
  FIRST_SCREENS_DIRECTORY,
  contextParamNames,
  taskContextSchema,
  type TaskContext,
} from '@partner-task-kit/workflow/contract';

/** The page's language when the browser prefers none it speaks, as pickLocale in packages/page/src/ui/i18n/locale.ts decides. */
const FALLBACK_LOCALE = 'en';

/**
 * Which prerendered first screen (the build's first-screens/, prerenderFirstScreens in packages/vite-plugin/src/index.ts) answers a GET of the
 * task page, or undefined for the plain index.html: the first step of `workflow` (the one link-screen.ts chose from
 * the task's state) or else of the workflow the link names, or of the default one, in the language the browser
 * prefers. Only for a link with a valid context: the page shows its error otherwise.
 */
export function firstScreenPicker(
  pageDirectory: string,
  defaultWorkflow: string,
): (query: unknown, acceptLanguage: string | undefined, workflow?: string) => string | undefined {
  const locales = localesByWorkflow(pageDirectory);
  if (locales.size === 0) return () => undefined;
  return (query, acceptLanguage, workflow) => {
    if (linkContext(query) === undefined) return undefined;
    const chosen = workflow ?? workflowChoice(query) ?? defaultWorkflow;
    const locale = negotiate(locales.get(chosen), acceptLanguage);
    return locale === undefined ? undefined : firstScreenFile(chosen, locale);
  };
}

/**
 * The page with the neutral opening screen (first-screens/opening/, prerenderOpeningScreens) in the language the
 * browser prefers, for a task already under way or ended; undefined when the build wrote none (index.html then).
 */
export function openingScreenPicker(pageDirectory: string): (acceptLanguage: string | undefined) => string | undefined {
  let offered: string[];
  try {
    offered = readdirSync(join(pageDirectory, dirname(openingScreenFile('en'))))
      .map((name) => /^([\w-]+)\.html$/.exec(name)?.[1])
      .filter((locale) => locale !== undefined)
      .sort();
  } catch {
    offered = [];
  }
  return (acceptLanguage) => {
    const locale = negotiate(offered, acceptLanguage);
    return locale === undefined ? undefined : openingScreenFile(locale);
  };
}

function negotiate(offered: string[] | undefined, acceptLanguage: string | undefined): string | undefined {
  if (!offered || offered.length === 0) return undefined;
  const locale =
    (acceptLanguage && new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(offered)) || FALLBACK_LOCALE;
  return offered.includes(locale) ? locale : undefined;
}

/** `<workflow>.<locale>.html` files of the build, read once at start: workflow -> its locales. */
function localesByWorkflow(pageDirectory: string): Map<string, string[]> {
  let names: string[];
  try {
    names = readdirSync(join(pageDirectory, FIRST_SCREENS_DIRECTORY));
  } catch {
    return new Map();
  }
  const locales = new Map<string, string[]>();
  for (const name of names) {
    const match = /^([\w-]+)\.([\w-]+)\.html$/.exec(name);
    if (!match) continue;
    const [workflow, locale] = [match[1]!, match[2]!];
    locales.set(workflow, [...(locales.get(workflow) ?? []), locale].sort());
  }
  return locales;
}

/** The four wx* values, each present once and valid (packages/page/src/context/read-task-context.ts): otherwise the page shows its error. */
export function linkContext(query: unknown): TaskContext | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const values = query as Record<string, unknown>;
  const parsed = taskContextSchema.safeParse(Object.fromEntries(contextParamNames.map((name) => [name, values[name]])));
  return parsed.success ? parsed.data : undefined;
}

/** The link's `workflow` variable as the page reads it (packages/page/src/context/read-workflow-choice.ts): blank counts as none. */
export function workflowChoice(query: unknown): string | undefined {
  const value = (query as Record<string, unknown>).workflow;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

/**
 * The CSP sources that allow the <style> elements of the build's first screens (packages/vite-plugin/src/index.ts inlines the page's
 * stylesheet into them) and of its opening screens, by hash: `'sha256-<base64>'`, read once at start. None without first screens.
 */
export function inlineStyleSources(pageDirectory: string): string[] {
  const directory = join(pageDirectory, FIRST_SCREENS_DIRECTORY);
  let names: string[];
  try {
    // The opening screens (first-screens/opening/) inline the same stylesheet, and are allowed the same way.
    names = readdirSync(directory, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.html'));
  } catch {
    return [];
  }
  const sources = new Set<string>();
  for (const name of names) {
    for (const match of readFileSync(join(directory, name), 'utf8').matchAll(/<style>([\s\S]*?)<\/style>/g)) {
      sources.add(`'sha256-${createHash('sha256').update(match[1]!).digest('base64')}'`);
    }
  }
  return [...sources];
}
