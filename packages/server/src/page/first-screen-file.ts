import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Negotiator from 'negotiator';
import { firstScreenFile, FIRST_SCREENS_DIRECTORY, contextParamNames, taskContextSchema } from '@partner-task-kit/workflow/contract';

/** The page's language when the browser prefers none it speaks, as pickLocale in packages/page/src/ui/i18n/locale.ts decides. */
const FALLBACK_LOCALE = 'en';

/**
 * Which prerendered first screen (the build's first-screens/, prerenderFirstScreens in packages/vite-plugin/src/index.ts) answers a GET of the
 * task page, or undefined for the plain index.html. It reads the URL and Accept-Language only: a GET opens no session
 * and creates no task (a link scanner fetching the iframe URL must change nothing), so the screen is the first step of
 * the workflow the link names, or of the default one, in the language the browser prefers. A task that turns out to be
 * further along (or a flow mapped to another workflow) renders its own screen once the session has answered.
 */
export function firstScreenPicker(
  pageDirectory: string,
  defaultWorkflow: string,
): (query: unknown, acceptLanguage: string | undefined) => string | undefined {
  const locales = localesByWorkflow(pageDirectory);
  if (locales.size === 0) return () => undefined;
  return (query, acceptLanguage) => {
    if (!hasValidContext(query)) return undefined;
    const workflow = workflowChoice(query) ?? defaultWorkflow;
    const offered = locales.get(workflow);
    if (!offered) return undefined;
    const locale =
      (acceptLanguage && new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(offered)) || FALLBACK_LOCALE;
    return offered.includes(locale) ? firstScreenFile(workflow, locale) : undefined;
  };
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
function hasValidContext(query: unknown): boolean {
  if (typeof query !== 'object' || query === null) return false;
  const values = query as Record<string, unknown>;
  return taskContextSchema.safeParse(Object.fromEntries(contextParamNames.map((name) => [name, values[name]]))).success;
}

/** The link's `workflow` variable as the page reads it (packages/page/src/context/read-workflow-choice.ts): blank counts as none. */
function workflowChoice(query: unknown): string | undefined {
  const value = (query as Record<string, unknown>).workflow;
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

/**
 * The CSP sources that allow the <style> elements of the build's first screens (packages/vite-plugin/src/index.ts inlines the page's
 * stylesheet into them), by hash: `'sha256-<base64>'`, read once at start. None without first screens.
 */
export function inlineStyleSources(pageDirectory: string): string[] {
  const directory = join(pageDirectory, FIRST_SCREENS_DIRECTORY);
  let names: string[];
  try {
    names = readdirSync(directory).filter((name) => name.endsWith('.html'));
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
