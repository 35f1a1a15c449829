import { useEffect, useRef, type ReactNode, type RefObject } from 'react';

export type FrameState = { open: true } | { open: false; reason: 'end event' | 'task completed button' };

/**
 * The task as the worker portal shows it: the partner's page in an iframe (docs/platform.md#partner-task-configuration), or, once the end event arrived
 * (docs/platform.md#end-event) or the portal's own button was pressed, the portal's "next task" screen in its place.
 */
export function TaskFrame({
  frameRef,
  ...props
}: {
  title: string;
  src: string;
  frameRef: RefObject<HTMLIFrameElement | null>;
  frameKey: number;
  state: FrameState;
  closedScreen: ReactNode;
  children?: ReactNode;
}) {
  if (!props.state.open) {
    return (
      <section className="pv-card pv-closed" aria-labelledby="closed-title">
        <ClosedHeading>
          {props.state.reason === 'end event'
            ? 'Task finished: continuing to the next task'
            : 'Marked as completed: continuing to the next task'}
        </ClosedHeading>
        <p className="pv-muted">
          {props.state.reason === 'end event'
            ? 'The portal received the end event from the task page and closed the iframe, as the worker portal does (spec 2.4).'
            : 'The worker pressed the portal’s own “Task Completed” button.'}
        </p>
        {props.closedScreen}
      </section>
    );
  }
  return (
    <div className="pv-frame-wrap">
      <iframe
        key={props.frameKey}
        ref={frameRef}
        className="pv-frame"
        title={`Task: ${props.title}`}
        src={props.src}
        referrerPolicy="no-referrer"
      />
      {props.children}
    </div>
  );
}

/** The iframe the keyboard was in is gone: focus moves to the heading that replaced it. */
function ClosedHeading({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h2 id="closed-title" ref={ref} tabIndex={-1} className="pv-closed-title">
      {children}
    </h2>
  );
}
