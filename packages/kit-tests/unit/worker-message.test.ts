import { describe, expect, it } from 'vitest';
import { asViewTexts, localisedTextSchema, textFor } from '@partner-task-kit/workflow/contract';

describe("a text for the worker in the worker's language", () => {
  const texts = { en: 'English', es: 'Español', 'es-MX': 'Español de México' };

  it('picks the same tag, else the same language, else English, else the first given', () => {
    expect(textFor(texts, 'es-MX')).toBe('Español de México');
    expect(textFor(texts, 'es')).toBe('Español');
    expect(textFor({ 'es-MX': 'Español de México', en: 'English' }, 'es')).toBe('Español de México');
    expect(textFor(texts, 'fr')).toBe('English');
    expect(textFor({ fr: 'Français', de: 'Deutsch' }, 'es')).toBe('Français');
    expect(textFor({ EN: 'English' }, 'en-gb')).toBe('English');
  });

  it('shows one plain text whatever the language, as given or as the task view carries it', () => {
    expect(textFor('Call us.', 'es')).toBe('Call us.');
    expect(asViewTexts('Call us.')).toEqual({ und: 'Call us.' });
    expect(textFor(asViewTexts('Call us.'), 'es')).toBe('Call us.');
    expect(asViewTexts(texts)).toEqual(texts);
  });

  it('says what is wrong with a bad one', () => {
    const problem = (value: unknown) => localisedTextSchema.safeParse(value).error?.issues[0]?.message;
    expect(problem(' ')).toBe('must not be empty');
    expect(problem('x'.repeat(501))).toBe('must be at most 500 characters');
    expect(problem({ english: 'Hi' })).toBe('must name each text by a language tag such as "en" or "es-MX"');
    expect(problem({})).toBe('must name at least one language');
    expect(problem(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`l${String.fromCharCode(97 + i)}`, 'x'])))).toBe(
      'must name at most 20 languages',
    );
    expect(problem(['Hi'])).toBe('must be a text, or an object of texts by language tag');
  });
});
