import { useShellTexts } from '../ui/i18n/locale-context';

/** Visible progress, "Step 2 of 4", also exposed as a progress bar with the same text. */
export function ProgressHeader({ index, total }: { index: number; total: number }) {
  const texts = useShellTexts();
  const label = texts.progress(index + 1, total);
  return (
    <header className="progress">
      <p className="progress-text" id="progress-text">
        {label}
      </p>
      <progress className="progress-bar" max={total} value={index + 1} aria-labelledby="progress-text" />
    </header>
  );
}
