import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The release workflow (.changeset/README.md#a-release) runs only on GitHub: here it is read as GitHub reads it, and
 * held to what makes it safe to publish from: every test before the publishing step, the commands it runs defined,
 * provenance asked for and allowed.
 */
const root = join(import.meta.dirname, '../../..');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | number | boolean>;
  env?: Record<string, string | boolean>;
}

interface Workflow {
  on: { push?: { branches?: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, { services?: Record<string, { image: string; env?: Record<string, string> }>; steps: Step[] }>;
}

const workflow = parse(readFileSync(join(root, '.github/workflows/release.yml'), 'utf8'), { strict: true, uniqueKeys: true }) as Workflow;
const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const [job, ...otherJobs] = Object.values(workflow.jobs);
const steps = job?.steps ?? [];
const publishing = steps.findIndex((step) => step.uses?.startsWith('changesets/action@'));

describe('the release workflow', () => {
  it('is one job on pushes to main, whose last step is changesets/action', () => {
    expect(otherJobs).toEqual([]);
    expect(workflow.on.push?.branches).toEqual(['main']);
    expect(publishing).toBe(steps.length - 1);
  });

  it('installs, then runs every test stage, the packed packages last, before the step that publishes', () => {
    const before = steps.slice(0, publishing).flatMap((step) => (step.run ? [step.run] : []));
    const order = ['npm ci', 'npm run typecheck', 'npm run lint', 'npm run test:unit', 'npm run test:e2e', 'npm run test:packed'];
    const positions = order.map((command) => before.findIndex((run) => run.startsWith(command)));
    expect(
      positions.every((position) => position !== -1),
      `each of ${order.join(', ')} in ${before.join(' | ')}`,
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('runs only npm scripts the repository defines', () => {
    const commands = [
      ...steps.flatMap((step) => (step.run ? [step.run] : [])),
      String(steps[publishing]?.with?.version),
      String(steps[publishing]?.with?.publish),
    ];
    const named = commands.flatMap((command) => [...command.matchAll(/npm run ([\w:-]+)/g)].map((match) => match[1]!));
    expect(named.filter((script) => scripts[script] === undefined)).toEqual([]);
    expect(scripts.release).toContain('changeset publish');
  });

  it('gives the tests Node 20, the whole history, Postgres as they expect it, and Chromium', () => {
    expect(steps.find((step) => step.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(20);
    // The upgrade rehearsal checks out the previous release's commit: a shallow clone skips it.
    expect(steps.find((step) => step.uses?.startsWith('actions/checkout@'))?.with?.['fetch-depth']).toBe(0);
    expect(job?.services?.postgres?.env).toMatchObject({
      POSTGRES_USER: 'postgres',
      POSTGRES_DB: 'test',
      POSTGRES_HOST_AUTH_METHOD: 'trust',
    });
    expect(steps.some((step) => step.run?.includes('playwright install') && step.run.includes('chromium'))).toBe(true);
  });

  it('publishes with provenance, which needs the id token', () => {
    expect(workflow.permissions['id-token']).toBe('write');
    expect(steps[publishing]?.env?.NPM_CONFIG_PROVENANCE).toBe(true);
  });
});
