import { createContext, use, type ReactNode } from 'react';
import type { Locale } from './locale';
import type { ShellTexts } from './shell-texts';
import { shellTextsEn } from './shell-texts.en';
import { shellTextsEs } from './shell-texts.es';

const shellTexts: Record<Locale, ShellTexts> = { en: shellTextsEn, es: shellTextsEs };

const LocaleContext = createContext<Locale>('en');

export function LocaleProvider({ locale, children }: { locale: Locale; children: ReactNode }) {
  return <LocaleContext value={locale}>{children}</LocaleContext>;
}

export function useLocale(): Locale {
  return use(LocaleContext);
}

export function useShellTexts(): ShellTexts {
  return shellTexts[use(LocaleContext)];
}
