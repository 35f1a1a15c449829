/** The languages the page speaks; a workflow ships its texts in each. */
export const locales = ['en', 'es'] as const;
export type Locale = (typeof locales)[number];

/** The first of the browser's preferred languages that we speak; English otherwise. */
export function pickLocale(languages: readonly string[]): Locale {
  for (const language of languages) {
    const base = language.toLowerCase().split('-')[0];
    const found = locales.find((locale) => locale === base);
    if (found) return found;
  }
  return 'en';
}
