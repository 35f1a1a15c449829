import type { Locale } from './locale.ts';
import type { ShellTexts } from './shell-texts.ts';

/** Some of a group of texts, nested as the group is: a text left out keeps the kit's; a function is replaced whole. */
export type TextsOverride<Texts> = {
  [Key in keyof Texts]?: Texts[Key] extends (...args: never[]) => unknown
    ? Texts[Key]
    : Texts[Key] extends object
      ? TextsOverride<Texts[Key]>
      : Texts[Key];
};

/**
 * The app's own versions of some of the shell's texts (shell-texts.en.ts, shell-texts.es.ts), per language: the app's
 * src/main.tsx hands them to mountTaskPage, and vite.config.ts names their module to the build, which renders the
 * prerendered first screens and their <title> with them (docs/architecture.md#theme-and-texts).
 */
export type ShellTextOverrides = { [L in Locale]?: TextsOverride<ShellTexts> };

/**
 * The kit's texts with the app's over them. The page (packages/page/src/app-root.tsx) and the build's prerender
 * (packages/page/src/task/prerender-first-screen.tsx) both merge with this, so the first screen in the HTML and the
 * page that hydrates it say the same.
 */
export function withOverrides<Texts extends object>(texts: Texts, override: TextsOverride<Texts> | undefined): Texts {
  // Written for the fewest bytes: it is in the app chunk every link loads first, within the page's budget
  // (packages/kit-tests/app-checks/page-build.test.ts).
  const merged = { ...texts };
  for (const key in override) {
    const value = override[key];
    merged[key] = (typeof value === 'object' ? withOverrides(texts[key] as object, value as object) : value) as Texts[typeof key];
  }
  return merged;
}
