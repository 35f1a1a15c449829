import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// One register per language (docs/glossary.md, "Register"): the Spanish texts speak to the worker as "tú", in the
// shell, the file fields, the examples' workflows and their offers' samples alike. These are the "usted" forms they
// used to mix in: the formal pronouns and possessives, and the formal imperatives and verbs of the texts.

const root = join(import.meta.dirname, '../../..');

/** A form of "usted", and what to write instead. Word-bounded, so "sube" or "suelo" never match "su". */
const ustedForms: ReadonlyArray<{ form: RegExp; instead: string }> = [
  { form: /(?<![\p{L}])(?:usted|ustedes)(?![\p{L}])/iu, instead: 'tú / ti' },
  { form: /(?<![\p{L}])sus?(?![\p{L}])/iu, instead: 'tu / tus (or "el / la" when it is not the worker’s)' },
  { form: /(?<![\p{L}])(le|les) (permite|permiten|ofrecemos)(?![\p{L}])/iu, instead: 'te permite, te ofrecemos' },
  {
    // Where an imperative stands: a sentence's or a clause's start. Elsewhere the same forms are the subjunctive that
    // "tú" texts use too ("cuando vuelva la conexión", "para que empiece").
    form: /(?:^|[.:;!?¿¡(]\s+|\s(?:y|o|y luego)\s+)(elija|escriba|escríbalo|indique|suba|añada|añádala|espere|continúe|póngalo|recargue|revise|vuelva|cambie|empiece|reserve)(?![\p{L}])/iu,
    instead: 'elige, escribe, indica, sube, añade, espera, continúa, ponlo, recarga, revisa, vuelve, cambia, empieza, reserva',
  },
  {
    form: /(?<![\p{L}])(puede cerrar|puede volver|puede trabajar|podrá|lo dejó|que indicó|que solicitó|dónde vive)(?![\p{L}])/iu,
    instead: 'puedes…, podrás, lo dejaste, indicaste, solicitaste, vives',
  },
];

/** Where the worker's texts live: the app's workflows, the engine's packages and the tests' copies of them. */
const sourceRoots = ['src', 'server', 'tests', 'packages'];

function sources(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const dir of sourceRoots) walk(join(root, dir));
  return files;
}

/** The text of every string and template literal in a file: what a page or a server can show. Comments are not read. */
export function literalTexts(source: string): string[] {
  const file = ts.createSourceFile('texts.tsx', source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const texts: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) texts.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return texts;
}

/** A text is Spanish when it has a letter only Spanish writes, or starts a question or an exclamation as Spanish does. */
const spanish = /[áéíóúñ¿¡]/iu;

function ustedIn(text: string): string[] {
  return ustedForms.filter(({ form }) => form.test(text)).map(({ form, instead }) => `${form.exec(text)![0]} → ${instead}`);
}

describe('the Spanish register', () => {
  it('finds the usted forms this check exists for, and not the tú forms or words that only start alike', () => {
    const usted = [
      '¿Es usted ciudadano?',
      'Fotos de su documento',
      'Estamos verificando sus documentos',
      'Elija sí o no.',
      'Por su seguridad no se muestra: escríbalo de nuevo.',
      'Indique su código postal.',
      'Suba una foto.',
      'Le ofrecemos citas cerca de usted.',
      'Puede cerrar esta página.',
      'Recargue la página para seguir donde lo dejó.',
      '¿Dónde vive?',
    ];
    for (const text of usted) expect(ustedIn(text), text).not.toEqual([]);
    const tu = [
      '¿Eres ciudadano?',
      'Fotos de tu documento',
      'Elige sí o no.',
      'Sube una foto.',
      'Primero señaliza el derrame para que nadie resbale en el suelo.',
      'Te ofrecemos citas cerca de ti.',
      'Puedes cerrar esta página: puede que no tengas conexión.',
      'Recarga la página para seguir donde lo dejaste.',
      'Suele tardar de uno a dos días laborables.',
    ];
    for (const text of tu) expect(ustedIn(text), text).toEqual([]);
  });

  it('reads the Spanish texts of the shell, the file fields and every example workflow', () => {
    const read = new Set(
      sources()
        .filter((file) => literalTexts(readFileSync(file, 'utf8')).some((text) => spanish.test(text)))
        .map((file) => relative(root, file)),
    );
    for (const file of [
      'packages/page/src/ui/i18n/shell-texts.es.ts',
      'packages/page/src/task/file-field-texts.ts',
      'src/workflows/availability/texts.es.ts',
      'src/workflows/background-check/texts.es.ts',
      'src/workflows/safety-training/texts.es.ts',
      'src/workflows/work-authorization/texts.es.ts',
      'src/workflows/work-authorization/appointment-texts.ts',
      'src/workflows/work-authorization/definition.ts',
    ])
      expect(read, file).toContain(file);
  });

  it('speaks to the worker as tú in every Spanish text: no usted form anywhere', () => {
    const found: string[] = [];
    for (const file of sources()) {
      for (const text of literalTexts(readFileSync(file, 'utf8'))) {
        if (!spanish.test(text) && !/\b(su|sus|usted)\b/i.test(text)) continue;
        // Tests quote what the page shows, and this file quotes the forms it looks for.
        if (file.endsWith('spanish-register.test.ts')) continue;
        for (const hit of ustedIn(text)) found.push(`${relative(root, file)}: "${text.slice(0, 80)}": ${hit}`);
      }
    }
    expect(found).toEqual([]);
  });
});
