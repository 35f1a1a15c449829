#!/usr/bin/env bash
# The engine's tests in a copy of this checkout's last commit with every example workflow deleted from the app, its
# tests and checks with them (docs/development.md#checks): the engine runs on fixture workflows of its own, so an app
# may delete every example. About 25 minutes on 2 CPUs; the copy is removed at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
copy=$(mktemp -d "${TMPDIR:-/tmp}/ptk-without-examples-XXXXXX")
git -C "$root" worktree add --detach "$copy" HEAD >/dev/null
trap 'git -C "$root" worktree remove --force "$copy"' EXIT
cd "$copy"

examples=$(sed -n "s/^const workflowIds = \[\(.*\)\] as const;$/\1/p" src/workflows/registry.ts | tr -d "' " | tr ',' ' ')
[ -n "${examples// /}" ] || { echo "src/workflows/registry.ts lists no workflowIds" >&2; exit 1; }
for id in $examples; do rm -r "src/workflows/$id"; done
# The app's tests and the checks that build the app go with its examples; what is left names no file of the app.
rm -r tests/app packages/kit-tests/app-checks packages/kit-tests/e2e/app
echo "deleted: src/workflows/ $examples, tests/app, kit-tests/app-checks, kit-tests/e2e/app"

npm ci --no-audit --no-fund
npm run build:packages
status=0
npx vitest run packages/kit-tests/unit packages/kit-tests/integration || status=1
npx playwright test --config packages/kit-tests/e2e/playwright.engine.config.ts || status=1
exit $status
