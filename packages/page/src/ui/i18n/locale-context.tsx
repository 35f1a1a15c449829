import { createContext, use, type ReactNode } from 'react';
import type { Locale } from './locale.ts';
import type { ShellTexts } from './shell-texts.ts';
import { shellTextsEn } from './shell-texts.en.ts';

/**
 * English is in the page's first JavaScript; another language's texts are fetched beside the app
 * (packages/page/src/task/mount-task-page.ts), so a worker downloads the texts of one language, not of every language the page
 * speaks.
 */
export function loadShellTexts(locale: Locale): Promise<ShellTexts> {
  return locale === 'es' ? import('./shell-texts.es.ts').then((module) => module.shellTextsEs) : Promise.resolve(shellTextsEn);
}

const LocaleContext = createContext<{ locale: Locale; texts: ShellTexts }>({ locale: 'en', texts: shellTextsEn });

/** @internal */
export function LocaleProvider({ locale, texts, children }: { locale: Locale; texts: ShellTexts; children: ReactNode }) {
  return <LocaleContext value={{ locale, texts }}>{children}</LocaleContext>;
}

export function useLocale(): Locale {
  return use(LocaleContext).locale;
}

export function useShellTexts(): ShellTexts {
  return use(LocaleContext).texts;
}
