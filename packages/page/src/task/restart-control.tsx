import { useState, type ReactNode } from 'react';
import { useApiClient } from '../api/api-client-context.tsx';
import { useRestartTask } from '../api/restart-task.ts';
import { Button } from '../ui/button.tsx';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { Notice } from '../ui/notice.tsx';
import { errorKind } from './error-text.ts';

/**
 * docs/platform.md#statuses-and-transitions: any task the worker acted on can be restarted with the same parameters. Restarting clears the attempt's
 * answers, so it asks once before doing it.
 */
export function RestartControl({
  label,
  variant,
  children,
}: {
  label: string;
  variant: 'primary' | 'link';
  /** Other choices shown beside the button; hidden while the restart is being confirmed (one question at a time). */
  children?: ReactNode;
}) {
  const texts = useShellTexts();
  const client = useApiClient();
  const restart = useRestartTask(client);
  const [confirming, setConfirming] = useState(false);

  if (!confirming) {
    return (
      <div className="restart">
        <Button variant={variant} onClick={() => setConfirming(true)}>
          {label}
        </Button>
        {children}
      </div>
    );
  }
  return (
    <div className="restart restart-confirm" role="group" aria-labelledby="restart-confirm-text">
      <p id="restart-confirm-text">{texts.restart.confirm}</p>
      <div className="actions">
        <Button
          busy={restart.isPending}
          busyText={texts.saving}
          onClick={() => restart.mutate(undefined, { onSuccess: () => setConfirming(false) })}
        >
          {texts.restart.yes}
        </Button>
        <Button variant="secondary" onClick={() => setConfirming(false)}>
          {texts.restart.cancel}
        </Button>
      </div>
      <Notice tone="error">{restart.isError ? texts.errors[errorKind(restart.error)] : undefined}</Notice>
    </div>
  );
}
