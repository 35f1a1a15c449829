import type { ContextProblem } from './read-task-context.ts';
import { FocusHeading } from '../ui/focus-heading.tsx';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { PageShell } from '../ui/page-shell.tsx';

/** Names each bad parameter and how to fix it; shown before, and instead of, any API call. */
export function ContextErrorScreen({ problems }: { problems: readonly ContextProblem[] }) {
  const texts = useShellTexts().contextError;
  return (
    <PageShell>
      <FocusHeading focusOnMount={false}>{texts.title}</FocusHeading>
      <p>{texts.intro}</p>
      <ul className="problems" aria-label={texts.title}>
        {problems.map((problem) => (
          <li key={problem.param}>
            {problem.kind === 'missing'
              ? texts.missing(problem.param)
              : problem.kind === 'repeated'
                ? texts.repeated(problem.param)
                : texts.invalid(problem.param, problem.received ?? '')}
          </li>
        ))}
      </ul>
      <p>{texts.workerHint}</p>
      <section className="developer-hint" aria-labelledby="developer-hint-title">
        <h2 id="developer-hint-title">{texts.developerHintTitle}</h2>
        <p>{texts.developerHint}</p>
      </section>
    </PageShell>
  );
}
