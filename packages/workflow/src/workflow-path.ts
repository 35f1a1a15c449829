import { checkAgainProblem } from './offer-rules.ts';
import type { Answers, StepDefinition, WorkflowDefinition } from './workflow-definition.ts';

/*
 * Where a task is in its workflow, from its answers alone: a pure function of the definition and the step data, run by
 * the server to decide every move (docs/decisions/001-the-server-is-the-authority.md) and by the page to show the same
 * progress. A step names the step after it (`next`): a step id, `null` for the end, or candidates tried in order, the
 * first whose condition holds on the answers so far; by default the step after it in the list, or the end after the last.
 */

/** The step that follows `step` given the answers so far: its id, or null when the workflow ends after it. */
export function nextStepId(workflow: WorkflowDefinition, step: StepDefinition, answers: Answers): string | null {
  const { next } = step;
  if (next === undefined) return followingInList(workflow, step);
  if (next === null || typeof next === 'string') return next;
  for (const [candidate, holds] of Object.entries(next)) {
    if (holds?.(answers) === true) return candidate;
  }
  throw new Error(`workflow ${workflow.id}: no branch after step ${step.id} holds for these answers`);
}

/** Every step the path may take after `step`, whatever the answers: the edges of the workflow's graph. */
function possibleNextIds(workflow: WorkflowDefinition, step: StepDefinition): (string | null)[] {
  const { next } = step;
  if (next === undefined) return [followingInList(workflow, step)];
  if (next === null || typeof next === 'string') return [next];
  return Object.keys(next);
}

function followingInList(workflow: WorkflowDefinition, step: StepDefinition): string | null {
  const index = workflow.steps.indexOf(step);
  return workflow.steps[index + 1]?.id ?? null;
}

export function stepById(workflow: WorkflowDefinition, id: string): StepDefinition | undefined {
  return workflow.steps.find((step) => step.id === id);
}

/**
 * The answered path: from the first step, each step that has an answer and the one its answers lead to, stopping at
 * the first step without one (or at the end). Only the answers of earlier steps on it are shown to a condition.
 */
export function answeredPath(workflow: WorkflowDefinition, stepData: Answers): { steps: StepDefinition[]; ends: boolean } {
  const steps: StepDefinition[] = [];
  const answers: Record<string, unknown> = {};
  let step = workflow.steps[0];
  while (step !== undefined && !steps.includes(step)) {
    steps.push(step);
    if (!Object.hasOwn(stepData, step.id)) return { steps, ends: false };
    answers[step.id] = stepData[step.id];
    const next = nextStepId(workflow, step, answers);
    if (next === null) return { steps, ends: true };
    step = stepById(workflow, next);
  }
  return { steps, ends: false };
}

/**
 * The answers that may still count: those of the steps on the answered path, and of the steps the path may still
 * reach after its first unanswered step (shown again, filled in, when the worker gets there). An answer of a branch the
 * answers no longer take is dropped.
 */
export function answersKept(workflow: WorkflowDefinition, stepData: Answers): Record<string, unknown> {
  const { steps, ends } = answeredPath(workflow, stepData);
  const keep = new Set(steps.map((step) => step.id));
  const frontier = ends ? undefined : steps.at(-1);
  const reach = (step: StepDefinition) => {
    for (const id of possibleNextIds(workflow, step)) {
      if (id === null || keep.has(id)) continue;
      keep.add(id);
      const next = stepById(workflow, id);
      if (next) reach(next);
    }
  };
  if (frontier) reach(frontier);
  return Object.fromEntries(Object.entries(stepData).filter(([id]) => keep.has(id)));
}

/** The answers a condition or a check of `stepId` sees: those of the steps before it on the path. */
export function answersBefore(workflow: WorkflowDefinition, stepData: Answers, stepId: string): Record<string, unknown> {
  const before: Record<string, unknown> = {};
  for (const step of answeredPath(workflow, stepData).steps) {
    if (step.id === stepId) break;
    if (Object.hasOwn(stepData, step.id)) before[step.id] = stepData[step.id];
  }
  return before;
}

/** The step before `stepId` on the path, where "Back" goes; undefined on the first step or off the path. */
export function previousStepId(workflow: WorkflowDefinition, stepData: Answers, stepId: string): string | undefined {
  const { steps } = answeredPath(workflow, stepData);
  const index = steps.findIndex((step) => step.id === stepId);
  return index > 0 ? steps[index - 1]!.id : undefined;
}

/**
 * "Step 3 of 6": the step's place on the path, and the steps of the longest way from it to the end over the
 * workflow's graph. While a branch ahead is undecided the total is the longest it may be; it shrinks as answers decide,
 * and never falls below the step's own place.
 */
export function progressOf(workflow: WorkflowDefinition, stepData: Answers, stepId: string): { position: number; total: number } {
  const { steps } = answeredPath(workflow, stepData);
  const index = steps.findIndex((step) => step.id === stepId);
  const position = index >= 0 ? index + 1 : steps.length;
  const step = stepById(workflow, stepId);
  return { position, total: position - 1 + (step ? longestFrom(workflow, step, new Set()) : 1) };
}

/** The number of steps of the workflow's longest path, from its first step: "Step 1 of N" before any answer. */
export function longestPathOf(workflow: WorkflowDefinition): number {
  const first = workflow.steps[0];
  return first ? longestFrom(workflow, first, new Set()) : 0;
}

function longestFrom(workflow: WorkflowDefinition, step: StepDefinition, visiting: Set<string>): number {
  if (visiting.has(step.id)) throw new Error(`workflow ${workflow.id}: its steps loop back to ${step.id}`);
  visiting.add(step.id);
  let longest = 0;
  for (const id of possibleNextIds(workflow, step)) {
    const next = id === null ? undefined : stepById(workflow, id);
    if (next) longest = Math.max(longest, longestFrom(workflow, next, visiting));
  }
  visiting.delete(step.id);
  return 1 + longest;
}

/**
 * What every workflow must be for the engine to run it: each step reachable from the first, every `next` naming a
 * step of the workflow, no loop, an end reachable, and an offer's settings within their bounds. Checked by each
 * workflow's tests and by the server at start.
 */
export function workflowProblems(workflow: WorkflowDefinition): string[] {
  const problems: string[] = [];
  const ids = new Set(workflow.steps.map((step) => step.id));
  if (ids.size !== workflow.steps.length) problems.push('two steps share an id');
  for (const step of workflow.steps) {
    for (const id of possibleNextIds(workflow, step)) {
      if (id !== null && !ids.has(id)) problems.push(`step ${step.id} leads to ${id}, which is not a step of the workflow`);
    }
    const offerProblem = step.offer && checkAgainProblem(step.offer);
    if (offerProblem) problems.push(`step ${step.id}: ${offerProblem}`);
  }
  if (problems.length > 0 || workflow.steps.length === 0) return problems.length > 0 ? problems : ['it has no step'];
  const reached = new Set<string>();
  const walk = (step: StepDefinition, trail: string[]) => {
    if (trail.includes(step.id)) {
      problems.push(`its steps loop: ${[...trail, step.id].join(' -> ')}`);
      return;
    }
    reached.add(step.id);
    for (const id of possibleNextIds(workflow, step)) {
      if (id !== null) walk(stepById(workflow, id)!, [...trail, step.id]);
    }
  };
  walk(workflow.steps[0]!, []);
  for (const step of workflow.steps) if (!reached.has(step.id)) problems.push(`step ${step.id} cannot be reached from the first step`);
  return problems;
}
