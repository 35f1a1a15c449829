import { lazy, Suspense, useState, type ComponentType } from 'react';
import type { Locale } from '../ui/i18n/locale.ts';
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
 * A download that fails is thrown to the step runner's error boundary, which says so.
 */
export function lazyScreen<Props extends object>(load: () => Promise<ScreenModule<Props>>): LazyScreen<Props> {
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
      <Suspense fallback={<LoadingScreen />}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { view: LazyScreenView, fetch: fetchOnce };
}

function LoadingScreen() {
  return <p role="status">{useShellTexts().loadingStep}</p>;
}

export interface WorkflowTexts<Texts> {
  /** Fetches the texts of `locale`, once (again after a failure). */
  load(locale: Locale): Promise<unknown>;
  /** The texts of `locale`: registry.views.ts has the page's language's in before the screens count as loaded. */
  get(locale: Locale): Texts;
}

/**
 * A workflow's texts, one chunk per language, so a page carries only its own language's: a link's page preloads the
 * texts of the language it was prerendered in, beside the workflow's screens (docs/development.md#benchmarks, the
 * first screen's JavaScript). The screens read them synchronously, as they render.
 */
export function workflowTexts<Texts>(loaders: Record<Locale, () => Promise<Texts>>): WorkflowTexts<Texts> {
  const loaded: Partial<Record<Locale, Texts>> = {};
  const loading: Partial<Record<Locale, Promise<unknown>>> = {};
  return {
    load: (locale) =>
      (loading[locale] ??= loaders[locale]().then(
        (texts) => (loaded[locale] = texts),
        (error: unknown) => {
          delete loading[locale];
          throw error;
        },
      )),
    get: (locale) => {
      const texts = loaded[locale];
      if (texts === undefined) throw new Error(`the ${locale} texts of this workflow were not loaded before its screens`);
      return texts;
    },
  };
}
