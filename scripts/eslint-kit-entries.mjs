// The lint wall of the kit's entries (docs/public-api.md): an import of a kit package names one of the entries its
// package.json "exports" lists, read from there so the rule and the packages cannot drift. The app (src/, server/,
// tests/app/) may import the public entries only; a package's src/ may import a sibling's kit-internal entries too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Each kit package's entries by specifier, from packages/<name>/package.json: `public`, and `internal`, its ./internal
 * entry.
 */
export function kitEntries(root) {
  const packagesDir = path.join(root, 'packages');
  const packages = new Map();
  for (const folder of readdirSync(packagesDir)) {
    let manifest;
    try {
      manifest = JSON.parse(readFileSync(path.join(packagesDir, folder, 'package.json'), 'utf8'));
    } catch {
      continue;
    }
    if (!manifest.name?.startsWith('@partner-task-kit/') || manifest.exports === undefined) continue;
    const internal = new Set(['./internal']);
    const keys = Object.keys(manifest.exports).filter((key) => key !== './package.json');
    const specifier = (key) => (key === '.' ? manifest.name : `${manifest.name}${key.slice(1)}`);
    packages.set(manifest.name, {
      public: keys.filter((key) => !internal.has(key)).map(specifier),
      internal: keys.filter((key) => internal.has(key)).map(specifier),
    });
  }
  return packages;
}

/** The package an import names: `@scope/name` of `@scope/name/deeper`. */
function packageOf(source) {
  return source.split('/').slice(0, 2).join('/');
}

/** `walls/kit-entries`, with `{ allow: 'public' }` (the app) or `{ allow: 'internal' }` (the kit's own packages). */
export function kitEntriesRule(root) {
  const packages = kitEntries(root);
  const publicEntries = [...packages.values()].flatMap((entries) => entries.public);
  return {
    meta: {
      type: 'problem',
      schema: [{ type: 'object', properties: { allow: { enum: ['public', 'internal'] } }, additionalProperties: false }],
      messages: {
        notPublic:
          '{{source}} is not a public entry of the kit. Import {{entries}} (docs/public-api.md): any other path is the ' +
          "kit's own, which a release may move or remove.",
        notNamed:
          '{{source}} is not an entry of {{name}}: a package imports a sibling through the entries its package.json ' +
          '"exports" names ({{entries}}), so an app could do the same (docs/public-api.md).',
      },
    },
    create(context) {
      const allow = context.options[0]?.allow ?? 'public';
      const check = (node, source) => {
        if (typeof source?.value !== 'string' || !source.value.startsWith('@partner-task-kit/')) return;
        const name = packageOf(source.value);
        const entries = packages.get(name);
        if (entries === undefined || source.value === `${name}/package.json`) return;
        const allowed = allow === 'public' ? entries.public : [...entries.public, ...entries.internal];
        if (allowed.includes(source.value)) return;
        if (allow === 'public')
          context.report({ node, messageId: 'notPublic', data: { source: source.value, entries: publicEntries.join(', ') } });
        else context.report({ node, messageId: 'notNamed', data: { source: source.value, name, entries: allowed.join(', ') } });
      };
      return {
        ImportDeclaration: (node) => check(node, node.source),
        ExportNamedDeclaration: (node) => check(node, node.source),
        ExportAllDeclaration: (node) => check(node, node.source),
        ImportExpression: (node) => check(node, node.source),
        TSImportType: (node) => check(node, node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument),
      };
    },
  };
}
