import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { ESTree } from 'vite';
import {
  declaredExports,
  hasDefaultExport,
  importsOf,
  keyName,
  nodesOf,
  nodesOfType,
  parseModule,
  withDefaultExport,
} from './source-edits.ts';

/**
 * A workflow's screens moved from its step switch to the folder's convention, as far as that is mechanical: a step
 * the switch renders as `<Screen {...props} />` (with the texts or not) from a module of the folder gets
 * `steps/<step-id>.tsx`, a re-export of that screen; a step rendered any other way is the partner's to move
 * (docs/upgrading.md#a-workflow-is-a-folder). Under the convention the page hands each screen its texts with the step's
 * props, so `texts={texts}` needs no wrapper.
 */
export interface MovedScreens {
  /** `steps/<step>.tsx` to write, from the app's root, by file. */
  writes: Map<string, string>;
  /** The step switch and the modules it dispatches through (later-steps.tsx): none of them is used any more. */
  switchFiles: string[];
  /** Steps the switches render otherwise, with what the partner writes. */
  stepsLeft: string[];
  /** The workflow's own end screens, which the partner moves to done.tsx or failed.tsx. */
  endScreensLeft: string[];
}

const resolvable = ['', '.tsx', '.ts', '.jsx', '.js'];

function resolveLocal(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./')) return undefined;
  const base = posix.join(posix.dirname(from), specifier);
  return resolvable.map((extension) => base + extension).find((file) => existsSync(join(root, file)) && !file.endsWith('/'));
}

/** `<x>.stepId` or `stepId`: what a step switch tests. */
function isStepId(node: ESTree.Expression): boolean {
  if (node.type === 'Identifier') return node.name === 'stepId';
  return node.type === 'MemberExpression' && !node.computed && node.property.name === 'stepId';
}

/**
 * The workflow's texts in the page's language, as the kit's step switches picked them: a name (`texts`,
 * `localeTexts`), `texts.get(props.locale)` (workflowTexts) or `textsByLocale[props.locale]`. The convention hands a
 * screen exactly these, so a screen given them needs no wrapper; one given a part of them (`texts.quiz`) does.
 */
function isLocaleTexts(expression: ESTree.Expression | ESTree.JSXEmptyExpression): boolean {
  const isLocale = (node: ESTree.Node) => node.type === 'MemberExpression' && !node.computed && node.property.name === 'locale';
  if (expression.type === 'Identifier') return true;
  if (expression.type === 'CallExpression') {
    const { callee, arguments: args } = expression;
    return (
      callee.type === 'MemberExpression' && !callee.computed && callee.property.name === 'get' && args.length === 1 && isLocale(args[0]!)
    );
  }
  return expression.type === 'MemberExpression' && expression.computed && isLocale(expression.property);
}

/**
 * The screen a plain case renders: `return <Screen {...props} />` or `… texts={texts} />`, alone, or the view of a
 * lazily loaded screen, `<photosStep.view {...props} />`; else undefined.
 */
function screenOf(statements: readonly ESTree.Statement[]): string | undefined {
  const only = statements.length === 1 && statements[0]!.type === 'BlockStatement' ? statements[0]!.body : statements;
  if (only.length !== 1 || only[0]!.type !== 'ReturnStatement') return undefined;
  let element = only[0].argument;
  while (element?.type === 'ParenthesizedExpression') element = element.expression;
  if (element?.type !== 'JSXElement' || element.children.length > 0) return undefined;
  const opening = element.openingElement;
  const name = opening.name;
  const lazyView = name.type === 'JSXMemberExpression' && name.object.type === 'JSXIdentifier' && name.property.name === 'view';
  if (!lazyView && (name.type !== 'JSXIdentifier' || !/^[A-Z]/.test(name.name))) return undefined;
  const [spread, ...rest] = opening.attributes;
  if (spread?.type !== 'JSXSpreadAttribute' || spread.argument.type !== 'Identifier') return undefined;
  const textsOnly = rest.every(
    (attribute) =>
      attribute.type === 'JSXAttribute' &&
      attribute.name.type === 'JSXIdentifier' &&
      attribute.name.name === 'texts' &&
      attribute.value?.type === 'JSXExpressionContainer' &&
      isLocaleTexts(attribute.value.expression),
  );
  if (!textsOnly || rest.length > 1) return undefined;
  return name.type === 'JSXIdentifier'
    ? name.name
    : name.type === 'JSXMemberExpression'
      ? `${(name.object as ESTree.JSXIdentifier).name}.view`
      : undefined;
}

/**
 * The module and export a screen binding comes from: an import, or a lazily loaded screen of the folder,
 * `const x = lazyScreen(() => import('./photos-step').then((module) => ({ default: module.PhotosStep })))`; a step
 * is its own chunk under the convention, so the screen itself is what its step's file exports.
 */
function bindingOf(program: ESTree.Program, screen: string): { source: string; imported: string } | undefined {
  if (!screen.endsWith('.view')) return importsOf(program).get(screen);
  const variable = screen.slice(0, -'.view'.length);
  const declarator = nodesOfType(program, 'VariableDeclarator').find((each) => each.id.type === 'Identifier' && each.id.name === variable);
  if (declarator?.init?.type !== 'CallExpression') return undefined;
  const loads = nodesOfType(declarator.init, 'ImportExpression');
  const picked = nodesOfType(declarator.init, 'ObjectExpression')
    .flatMap((object) => object.properties)
    .filter((property): property is ESTree.ObjectProperty => property.type === 'Property' && keyName(property) === 'default');
  const source = loads[0]?.source;
  const value = picked[0]?.value;
  if (loads.length !== 1 || picked.length !== 1 || source?.type !== 'Literal' || typeof source.value !== 'string') return undefined;
  if (value?.type !== 'MemberExpression' || value.computed) return undefined;
  return { source: source.value, imported: value.property.name };
}

/** Each step a module dispatches on, with the screen it renders when the case is plain. */
function casesOf(program: ESTree.Program): Map<string, string | undefined> {
  const cases = new Map<string, string | undefined>();
  for (const node of nodesOf(program)) {
    if (node.type === 'SwitchStatement' && isStepId(node.discriminant)) {
      for (const each of node.cases) {
        if (each.test?.type === 'Literal' && typeof each.test.value === 'string') cases.set(each.test.value, screenOf(each.consequent));
      }
    }
    if (node.type === 'IfStatement' && node.test.type === 'BinaryExpression' && node.test.operator === '===') {
      const { left, right } = node.test;
      const literal = [left, right].find((side) => side.type === 'Literal' && typeof side.value === 'string') as
        ESTree.StringLiteral | undefined;
      const tested = [left, right].find((side) => side !== literal);
      if (literal !== undefined && tested !== undefined && isStepId(tested as ESTree.Expression)) {
        cases.set(literal.value, screenOf([node.consequent]));
      }
    }
  }
  return cases;
}

/** The modules `file` imports from its folder, statically or by import(). */
function localModules(root: string, file: string, program: ESTree.Program): string[] {
  const specifiers = [
    ...[...importsOf(program).values()].map((each) => each.source),
    ...nodesOfType(program, 'ImportExpression').flatMap((expression) =>
      expression.source.type === 'Literal' && typeof expression.source.value === 'string' ? [expression.source.value] : [],
    ),
  ];
  return [...new Set(specifiers.flatMap((specifier) => resolveLocal(root, file, specifier) ?? []))];
}

/**
 * The end screens (`done`, `failed`) the switch's `screens` names, each with where it comes from when that is plain:
 * an import, or a function of the switch rendering one screen as a step's case does (`<doneScreen.view {...props}
 * texts={…} />`).
 */
function endScreensOf(program: ESTree.Program): { name: string; binding: { source: string; imported: string } | undefined }[] {
  const screens = nodesOfType(program, 'VariableDeclarator').find((each) => each.id.type === 'Identifier' && each.id.name === 'screens');
  if (screens?.init?.type !== 'ObjectExpression') return [];
  return screens.init.properties.flatMap((property) => {
    const name = property.type === 'Property' ? keyName(property) : undefined;
    if ((name !== 'done' && name !== 'failed') || property.type !== 'Property' || property.value.type !== 'Identifier')
      return name === 'done' || name === 'failed' ? [{ name, binding: undefined }] : [];
    const local = property.value.name;
    const imported = importsOf(program).get(local);
    if (imported !== undefined) return [{ name, binding: imported }];
    const declared = [...nodesOf(program)].find(
      (node): node is ESTree.Function & { type: string } =>
        node.type === 'FunctionDeclaration' && (node as ESTree.Function).id?.name === local,
    );
    const screen = declared?.body ? screenOf(declared.body.body) : undefined;
    return [{ name, binding: screen === undefined ? undefined : bindingOf(program, screen) }];
  });
}

/**
 * The screens of the workflow in `folder` (from the app's root) whose step switch is `switchFile`, for its `steps`:
 * what moves by itself, and what is left.
 */
export function moveScreens(root: string, folder: string, switchFile: string, steps: readonly string[]): MovedScreens {
  const writes = new Map<string, string>();
  const switchFiles: string[] = [];
  const stepsLeft: string[] = [];
  const seen = new Set<string>();
  const cases = new Map<string, { screen: string | undefined; file: string; program: ESTree.Program }>();
  const visit = (file: string) => {
    if (seen.has(file) || !file.startsWith(`${folder}/`) || file.startsWith(`${folder}/steps/`)) return;
    seen.add(file);
    const program = parseModule(file, readFileSync(join(root, file), 'utf8'));
    const found = casesOf(program);
    if (file !== switchFile && found.size === 0) return;
    switchFiles.push(file);
    for (const [step, screen] of found) if (!cases.has(step) || screen !== undefined) cases.set(step, { screen, file, program });
    for (const next of localModules(root, file, program)) visit(next);
  };
  visit(switchFile);

  for (const step of steps) {
    const target = `${folder}/steps/${step}.tsx`;
    if (['.tsx', '.ts', '.jsx', '.js'].some((extension) => existsSync(join(root, `${folder}/steps/${step}${extension}`)))) continue;
    const found = cases.get(step);
    const binding = found?.screen === undefined ? undefined : bindingOf(found.program, found.screen);
    const module = binding === undefined ? undefined : resolveLocal(root, found!.file, binding.source);
    if (binding === undefined || module === undefined || binding.imported === '*') {
      stepsLeft.push(`write ${target}: its default export, the screen of step "${step}"${found ? ` (${found.file} renders it)` : ''}`);
      continue;
    }
    const specifier = posix.relative(`${folder}/steps`, posix.join(posix.dirname(found!.file), binding.source));
    const exported = binding.imported === 'default' ? 'default' : `${binding.imported} as default`;
    writes.set(target, `export { ${exported} } from '${specifier}';\n`);
  }
  const endScreensLeft: string[] = [];
  for (const { name, binding } of endScreensOf(parseModule(switchFile, readFileSync(join(root, switchFile), 'utf8')))) {
    const target = `${folder}/${name}.tsx`;
    if (['.tsx', '.ts', '.jsx', '.js'].some((extension) => existsSync(join(root, `${folder}/${name}${extension}`)))) continue;
    const module = binding === undefined || binding.imported === '*' ? undefined : resolveLocal(root, switchFile, binding.source);
    if (binding === undefined || module === undefined) {
      endScreensLeft.push(`write ${target}: its default export, the workflow's ${name} screen, which ${switchFile} names in its screens`);
      continue;
    }
    const specifier = `./${posix.relative(folder, posix.join(posix.dirname(switchFile), binding.source))}`;
    writes.set(
      target,
      `export { ${binding.imported === 'default' ? 'default' : `${binding.imported} as default`} } from '${specifier}';\n`,
    );
  }
  return { writes, switchFiles, stepsLeft, endScreensLeft };
}

/**
 * Each texts.<locale>.ts of the folder given a default export, the one value it exports (`export const xTextsEn`); a
 * file exporting several is the partner's to choose.
 */
export function textsDefaults(root: string, folder: string): { writes: Map<string, string>; left: string[] } {
  const writes = new Map<string, string>();
  const left: string[] = [];
  for (const name of readdirSync(join(root, folder)).sort()) {
    if (!/^texts\.[a-z]{2,3}(?:-[a-z0-9]+)?\.(?:ts|js)$/i.test(name)) continue;
    const file = `${folder}/${name}`;
    const code = readFileSync(join(root, file), 'utf8');
    const program = parseModule(file, code);
    if (hasDefaultExport(program)) continue;
    const exported = declaredExports(program);
    if (exported.length === 1) writes.set(file, withDefaultExport(code, exported[0]!));
    else left.push(`${file}: give it a default export, the texts in that language`);
  }
  return { writes, left };
}
