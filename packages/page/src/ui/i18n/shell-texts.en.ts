import type { ShellTexts } from './shell-texts.ts';

/** @internal */
export const shellTextsEn: ShellTexts = {
  documentTitle: 'Onboarding task',
  opening: 'Opening your task…',
  standalone: 'Opened outside the worker portal: the portal will not be told when you finish.',
  emulator: 'Emulator mode: progress goes to a local test copy of the platform, not to the real one.',
  contextError: {
    title: 'This task link is incomplete',
    intro: 'The page needs four values from the worker portal. These are missing or wrong:',
    missing: (param) => `${param} is missing.`,
    invalid: (param, received) => `${param} is not a UUID (received “${received}”).`,
    repeated: (param) => `${param} appears more than once.`,
    workerHint: 'If you are a worker: go back to your task list and open the task again. If this keeps happening, tell your employer.',
    developerHintTitle: 'For partner developers',
    developerHint:
      'Open the preview portal at /preview to launch the task with test values, or turn on “Append task context” in the partner task settings so the portal appends wxWorkerUuid, wxAssignedTaskUuid, wxTaskFlowUuid and wxCompanyUuid to the iframe URL.',
  },
  loadError: { title: 'We could not open your task', retry: 'Try again' },
  notAvailable: { title: 'This task cannot be done here' },
  unknownWorkflow: {
    title: 'This task link asks for something we do not offer',
    body: (workflow) =>
      `The link of this task names the workflow “${workflow}”, which this partner does not offer, so the task cannot open here. Nothing was saved.`,
    workerHint:
      'If you are a worker: tell the person who assigned you this task, or your employer, that its link names a workflow the partner does not offer. They can correct the task; trying again will not help until then.',
    developerHintTitle: 'For partner developers',
    developerHint: (workflow) =>
      `The iframe URL of the partner task has the variable workflow=${workflow}. Use the id of a workflow in the app's workflow registry (the preview portal at /preview lists them), or remove the variable to run the default workflow.`,
  },
  unknownStep: {
    title: 'This step cannot be shown',
    body: (step) =>
      `Your task is on a step (“${step}”) that this page has no screen for, so there is nothing to fill in here. What you saved before is kept.`,
    workerHint:
      'Reload the page: the task may have changed while it was open. If this screen comes back, tell the person who assigned you this task.',
    reload: 'Reload the page',
    developerHintTitle: 'For partner developers',
    developerHint: (workflow, step) =>
      `The task's current step is “${step}”, which the workflow “${workflow}” as this page knows it does not have, or which its screens in the app's workflow registry do not render. Deploy the page and the server together, give the step a screen, or restart the task so that it begins at the first step.`,
  },
  unsaved: {
    message:
      'Not saved yet: we cannot reach the server right now (you may be offline). What you entered is still here, and we will save it as soon as the connection is back.',
    retryNow: 'Try again now',
  },
  progress: (step, total) => `Step ${step} of ${total}`,
  progressLabel: 'Progress',
  saving: 'Saving…',
  saved: 'Saved.',
  errors: {
    network: 'We could not reach the server. Check your connection, then try again: your answers are still here.',
    server: 'Something went wrong on our side and nothing was saved. Please try again in a moment.',
    rate_limited: 'Too many attempts in a short time. Wait a minute, then try again.',
    session: 'Your session ended. Reload the page to continue where you left off.',
    task_changed: 'This task changed in another window. We reloaded your progress: please check this step again.',
    invalid: 'Some answers are missing or not valid. Check the highlighted fields.',
    unknown_company:
      "This task is not set up for your company yet, so it cannot be done here. Tell your company's administrator or the person who assigned it; nothing was saved.",
    task_rejected:
      'This task is not known to the portal, so it cannot be done here. Open it again from your task list in the portal; if it happens again, tell the person who assigned it.',
    context_mismatch:
      'This task was already opened with other details. Open it again from your task list in the portal; if it happens again, tell the person who assigned it, who can free it for you.',
    unknown_workflow:
      'The link of this task names a workflow this partner does not offer. Tell the person who assigned you this task; nothing was saved.',
    unknown: 'Something unexpected happened. Reload the page to continue where you left off.',
  },
  done: {
    title: 'All done',
    body: (date) => `You completed this task on ${date}. You can now continue in the portal.`,
    portalNotified: 'We sent the portal word that you finished. If it does not move on by itself, go back to your task list in the portal.',
    standaloneNotice: 'This page is not inside the worker portal, so no portal was told.',
    reopened: {
      title: 'You completed this task',
      completedOn: (date) => `Completed on ${date}.`,
      redo: 'Were you asked to do it again, for example because it was reset or not approved? Start again from the beginning.',
      keep: 'Keep it as it is',
      kept: 'Nothing was changed: the task stays completed. You can go back to the portal.',
    },
  },
  failed: {
    title: 'This task could not be completed',
    attemptsExhausted: (max) => `A step of this task was not passed in ${max} attempts. You can start this task again from the beginning.`,
    other: 'This attempt ended with a problem. You can start again from the beginning.',
    problem: 'This attempt ended with a problem.',
    nextStep: 'You can start again from the beginning.',
  },
  back: 'Back',
  restart: {
    startAgain: 'Start again',
    startOver: 'Start over from the beginning',
    confirm: 'Starting again clears the answers of this attempt.',
    yes: 'Yes, start again',
    cancel: 'Cancel',
  },
  loadingStep: 'Loading this step…',
};
