import { z } from 'zod/mini';

/**
 * A text for the worker, in one language or several: a plain string, shown whatever the page's language, or a map
 * from a BCP 47 language tag (`en`, `es`, `es-MX`) to the text in it, of which the page shows the one that fits the
 * worker best (`textFor`). Partner-written (docs/connecting-your-backend.md#steps-your-backend-completes), so the page
 * shows it as text, never as markup.
 */
export type LocalisedText = string | Readonly<Record<string, string>>;

/**
 * A `LocalisedText` as the task view carries it (docs/api.md#the-task): always texts by language tag, a single text
 * for every language under `und` (BCP 47's "undetermined"), so the page checks one shape it already knows (a record)
 * and its first scripts carry no union (docs/development.md#benchmarks). The server checked each text against
 * `localisedTextSchema` when it was given.
 */
export function asViewTexts(text: LocalisedText): Record<string, string> {
  return typeof text === 'string' ? { und: text } : { ...text };
}

/** The longest text the worker is shown for one reason: a few sentences, not a letter. */
export const WORKER_TEXT_MAX_LENGTH = 500;
/** The most languages one text comes in. */
export const WORKER_TEXT_MAX_LANGUAGES = 20;

const textSchema = z.string().check(
  z.refine((text) => text.trim().length > 0, 'must not be empty'),
  z.maxLength(WORKER_TEXT_MAX_LENGTH, `must be at most ${WORKER_TEXT_MAX_LENGTH} characters`),
);

/** A language tag as a browser names one: `en`, `es-MX`, `zh-Hant-TW` (RFC 5646's common forms). */
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;

/** docs/api.md#the-task `failure.workerMessage`, and the partner API's `workerMessage` (docs/connecting-your-backend.md). */
export const localisedTextSchema = z.union(
  [
    textSchema,
    z.record(z.string(), textSchema).check(
      // Checked here rather than by the record's key schema, whose refusal says only "Invalid input".
      z.refine(
        (texts) => Object.keys(texts).every((tag) => LANGUAGE_TAG.test(tag)),
        'must name each text by a language tag such as "en" or "es-MX"',
      ),
      z.refine((texts) => Object.keys(texts).length > 0, 'must name at least one language'),
      z.refine(
        (texts) => Object.keys(texts).length <= WORKER_TEXT_MAX_LANGUAGES,
        `must name at most ${WORKER_TEXT_MAX_LANGUAGES} languages`,
      ),
    ),
  ],
  { error: 'must be a text, or an object of texts by language tag' },
);

/**
 * The text of `text` for a worker who reads `locale`: the same tag, else the same language (`es` for `es-MX` and the
 * reverse), else English, else the first given. Tags are compared without letter case.
 */
export function textFor(text: LocalisedText, locale: string): string {
  if (typeof text === 'string') return text;
  const entries = Object.entries(text).map(([tag, value]) => [tag.toLowerCase(), value] as const);
  const wanted = locale.toLowerCase();
  const language = (tag: string) => tag.split('-')[0];
  const found =
    entries.find(([tag]) => tag === wanted) ??
    entries.find(([tag]) => language(tag) === language(wanted)) ??
    entries.find(([tag]) => language(tag) === 'en') ??
    entries[0];
  return found?.[1] ?? '';
}
