#!/usr/bin/env bash
# The engine's tests in a copy of this checkout's last commit with every example workflow deleted from the app, its
# tests and checks with them (docs/development.md#checks): the engine runs on fixture workflows of its own, so an app
# may delete every example. An app runs at least one workflow (the server refuses to start with none), so the one
# `npm run new-workflow` writes stands in for them, and the app still type-checks, builds and passes its tests with it
# alone. About 25 minutes on 2 CPUs; the copy is removed at the end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
copy=$(mktemp -d "${TMPDIR:-/tmp}/ptk-without-examples-XXXXXX")
git -C "$root" worktree add --detach "$copy" HEAD >/dev/null
trap 'git -C "$root" worktree remove --force "$copy"' EXIT
cd "$copy"

# Each folder of src/workflows/ is a workflow, but one named with a leading _ or . (docs/architecture.md#a-workflow-is-a-folder).
examples=$(find src/workflows -mindepth 1 -maxdepth 1 -type d ! -name '_*' ! -name '.*' -printf '%f\n' | sort | tr '\n' ' ')
[ -n "${examples// /}" ] || { echo "src/workflows/ holds no workflow folder" >&2; exit 1; }
for id in $examples; do rm -r "src/workflows/$id"; done
# The app's tests and the checks that build the app go with its examples; what is left names no file of the app.
rm -r tests/app packages/kit-tests/app-checks packages/kit-tests/e2e/app
echo "deleted: src/workflows/ $examples, tests/app, kit-tests/app-checks, kit-tests/e2e/app"

npm ci --no-audit --no-fund
npm run build:packages
npm run new-workflow -- sample-form
# The default workflow server/main.ts names went with the examples: the app's one workflow is its default.
node --import tsx --input-type=module -e "
  import { readFileSync, writeFileSync } from 'node:fs';
  import { defaultWorkflowOf } from './packages/vite-plugin/src/cli/source-edits.ts';
  const named = defaultWorkflowOf('server/main.ts', readFileSync('server/main.ts', 'utf8'));
  if (named !== undefined) writeFileSync('server/main.ts', named.edit('sample-form'));"
status=0
npm run typecheck || status=1
npm run build || status=1
npx vitest run packages/kit-tests/unit packages/kit-tests/integration tests/app || status=1
npx playwright test --config packages/kit-tests/e2e/playwright.engine.config.ts || status=1
exit $status
