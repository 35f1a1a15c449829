import { describeMixedKit, findKitCopies, KIT_VERSION_CHECK } from '../kit-versions.ts';
import type { CheckResult } from './doctor-checks.ts';

/**
 * The kit's packages in the app's tree, as the server's start checks them (docs/upgrading.md#one-version-of-the-kit). A
 * mix fails here even with KIT_VERSION_CHECK=off: that lets the server run on it, it does not make it sound.
 */
export function checkKitVersionsForDoctor(appRoot: string, environment: Readonly<Record<string, string | undefined>>): CheckResult {
  const name = 'kit versions';
  const copies = findKitCopies(appRoot);
  const mixed = describeMixedKit(copies, appRoot);
  if (mixed === undefined) {
    const versions = [...new Set(copies.map((copy) => copy.version))];
    const summary =
      copies.length === 0
        ? "no kit package found from this folder (a bundled server carries the kit's code)"
        : `${copies.length} packages, one copy each, at ${versions.join(', ')}`;
    return { name, ok: true, summary };
  }
  const bypassed = environment[KIT_VERSION_CHECK] === 'off' ? ` (${KIT_VERSION_CHECK}=off lets the server start on it)` : '';
  return {
    name,
    ok: false,
    summary: `${mixed.problem.replaceAll('\n', '\n     ')}${bypassed}`,
    nextStep: `${mixed.fix.charAt(0).toUpperCase()}${mixed.fix.slice(1)}`,
  };
}
