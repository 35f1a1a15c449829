import { lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';

export type ScreenModule<Props> = { default: ComponentType<Props> };

export interface LazyScreen<Props> {
  /** The screen: at once when its module was in when it mounted, else a loading line until it is. */
  view: ComponentType<Props>;
  /** Starts the download, once (again after a failure); settles when the module is in or failed. */
  fetch(): Promise<unknown>;
}

/**
 * A screen in a chunk of its own, fetched once (again after a failure). Whether it waits behind a Suspense boundary is
 * decided when it mounts, and kept, so the tree has one shape for that screen's life:
 * - its module already in (the first step, which the page fetched before hydrating; the next steps, fetched while the
 *   worker read the first): no boundary. React hydrates a Suspense boundary in a pass of its own at the lowest
 *   priority, after anything else that comes in, the session's answer included: the prerendered first step took
 *   presses only once that was done (docs/development.md#benchmarks, first step interactive).
 * - not yet: a boundary with a loading line until it is in. React.lazy learns that a promise has settled a microtask
 *   later, so a module that is in is handed over by a thenable that calls back at once.
 * A download that fails is thrown to the step runner's error boundary, which says so. `fallback` is what waits in its
 * place: the loading line unless told.
 */
export function lazyScreen<Props extends object>(load: () => Promise<ScreenModule<Props>>, fallback?: ReactNode): LazyScreen<Props> {
  let loaded: ScreenModule<Props> | undefined;
  let loading: Promise<ScreenModule<Props>> | undefined;
  const fetchOnce = () =>
    (loading ??= load().then(
      (module) => (loaded = module),
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
  const settled = (module: ScreenModule<Props>) => ({ then: (resolve: (value: ScreenModule<Props>) => void) => resolve(module) });
  const Lazy = lazy(() => (loaded ? (settled(loaded) as unknown as Promise<ScreenModule<Props>>) : fetchOnce()));

  function LazyScreenView(props: Props) {
    const [inAtMount] = useState(() => loaded);
    if (inAtMount) return <inAtMount.default {...props} />;
    return (
      <Suspense fallback={fallback === undefined ? <LoadingScreen /> : fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { view: LazyScreenView, fetch: fetchOnce };
}

function LoadingScreen() {
  return <p role="status">{useShellTexts().loadingStep}</p>;
}
