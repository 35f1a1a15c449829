import { useQueryClient } from '@tanstack/react-query';
import { useApiClient } from '../api/api-client-context.tsx';
import { useGoBack } from '../api/go-back.ts';
import { taskKeys } from '../api/query-keys.ts';
import { Button } from '../ui/button.tsx';
import { useShellTexts } from '../ui/i18n/locale-context.tsx';
import { Notice } from '../ui/notice.tsx';
import { errorKind, isStaleTaskError } from './error-text.ts';

/**
 * "Back", at the top of a step as GOV.UK's back link: a real button, reached first by keyboard, that moves the task
 * to the step before on its path (POST /api/task/back, docs/api.md#post-apitaskback). Never on a link's first step,
 * so it loads with the later steps (step-runner.tsx), not in the first screen's JavaScript.
 */
export default function BackLink({ stepId, disabled, onMoved }: { stepId: string; disabled: boolean; onMoved(): void }) {
  const texts = useShellTexts();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const back = useGoBack(client);

  function goBack() {
    if (disabled || back.isPending) return;
    back.mutate(stepId, {
      onSuccess: onMoved,
      // Another tab moved the task on: the page shows the task as it now is.
      onError: (error) => {
        if (isStaleTaskError(error)) void queryClient.invalidateQueries({ queryKey: taskKeys.view(client.context) });
      },
    });
  }

  return (
    <>
      <Button variant="link" className="back-link" busy={back.isPending} busyText={texts.saving} onClick={goBack}>
        <span aria-hidden="true">‹ </span>
        {texts.back}
      </Button>
      <Notice tone="error">{back.isError ? texts.errors[errorKind(back.error)] : undefined}</Notice>
    </>
  );
}
