import { lazyScreen } from '../workflows/lazy-screen.tsx';

const load = () => import('./end-screen.tsx');

/**
 * The screen of an attempt that has ended (end-screen.tsx), a chunk of its own: no link's first screen needs it
 * (docs/development.md#benchmarks). Fetched while the worker is on the step whose save may end the attempt
 * (preloadEndScreen), it is in when the attempt ends and shows with no Suspense boundary. A boundary would cost more
 * than the download: React reveals content that replaces a fallback no sooner than 300 ms after that fallback was
 * shown (its throttle of Suspense reveals).
 */
export const endScreen = lazyScreen(load, null);

/**
 * Fetches the end screen and the workflow's own done and failure screens, with its texts, as the screens of the steps
 * after the one shown are fetched (docs/architecture.md#a-workflow-is-a-folder). Settles when they are in or failed:
 * a failure is tried again, and shown, when the attempt ends.
 */
export function preloadEndScreen(workflowId: string): Promise<unknown> {
  return endScreen
    .fetch()
    .then(load)
    .then((module) => module.preloadEndViews(workflowId));
}
