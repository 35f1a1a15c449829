import type { Assignment } from './api/assignment-schema.ts';
import { AdminActions } from './admin-actions.tsx';
import { AuditTrail } from './audit-trail.tsx';
import { LatestUpdate } from './latest-update.tsx';

/** The worker task information panel of docs/platform.md#partner-task-update-record, as the emulator holds it; refreshed every second. */
export function TaskInfoPanel({ controlPath, assignment, onReset }: { controlPath: string; assignment: Assignment; onReset: () => void }) {
  const { options } = assignment;
  return (
    <section className="pv-card" aria-labelledby="panel-title">
      <h2 id="panel-title">Task information</h2>
      <LatestUpdate assignment={assignment} />
      <AdminActions controlPath={controlPath} assignment={assignment} onReset={onReset} />
      <AuditTrail assignment={assignment} />
      <details className="pv-details">
        <summary>Assignment options and context</summary>
        <dl className="pv-facts pv-small">
          <Fact name="Estimated time" value={options.estimatedCompletionTime ?? 'not set'} />
          <Fact name="End event" value={options.endEvent ?? 'none'} />
          <Fact name="Append task context" value={options.appendTaskContext ? 'yes' : 'no'} />
          <Fact name="Hide “Task Completed”" value={options.hideTaskCompletedButton ? 'yes' : 'no'} />
          <Fact name="Require review" value={options.requireReview ? 'yes' : 'no'} />
          <Fact name="wxWorkerUuid" value={assignment.workerUuid} />
          <Fact name="wxAssignedTaskUuid" value={assignment.assignedTaskUuid} />
          <Fact name="wxTaskFlowUuid" value={assignment.taskFlowUuid} />
          <Fact name="wxCompanyUuid" value={assignment.companyUuid} />
          <Fact name="Launch URL" value={assignment.launchUrl} />
        </dl>
      </details>
    </section>
  );
}

function Fact({ name, value }: { name: string; value: string }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd>
        <code className="pv-code">{value}</code>
      </dd>
    </div>
  );
}
