/**
 * Whether the worker has pressed, tapped or typed in this page. The browser's own record of that,
 * `navigator.userActivation.hasBeenActive`, also counts presses in a same-origin page around the frame (the preview
 * is one) and script that automation runs with a user gesture, neither of which puts the worker's keyboard here.
 */
const INPUT_EVENTS = ['pointerdown', 'keydown'] as const;
let acted = false;

function noteInput(): void {
  acted = true;
  for (const type of INPUT_EVENTS) document.removeEventListener(type, noteInput, { capture: true });
}

/** Starts listening; the page's entry calls it first thing, so input on the prerendered screen counts too. */
export function watchWorkerInput(): void {
  for (const type of INPUT_EVENTS) document.addEventListener(type, noteInput, { capture: true, passive: true });
}

export function workerHasActed(): boolean {
  return acted;
}
