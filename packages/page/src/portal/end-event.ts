import type { EndEvent, TaskContext } from '@partner-task-kit/workflow/contract';

/**
 * docs/platform.md#partner-task-configuration / 6.1: the portal closes the iframe on the configured end event; its name and delivery format are not
 * shown, so both are configurable (END_EVENT, END_EVENT_FORMAT):
 * - `string`: the bare event name, e.g. `"partner-task-complete"`;
 * - `object`: `{ type: <name>, taskStatus: "completed", wxWorkerUuid, wxAssignedTaskUuid, wxTaskFlowUuid, wxCompanyUuid }`.
 */
type EndEventMessage = string | ({ type: string; taskStatus: 'completed' } & TaskContext);

function endEventMessage(event: EndEvent, context: TaskContext): EndEventMessage {
  if (event.format === 'string') return event.name;
  return { type: event.name, taskStatus: 'completed', ...context };
}

export interface MessageTarget {
  postMessage(message: unknown, targetOrigin: string): void;
}

/**
 * Posts the end event to the parent once per configured portal origin, each as an exact target origin: the browser
 * delivers it only if the parent is at that origin, so the context never leaks to another site. Never '*'.
 * When the browser tells the parent's origin (`location.ancestorOrigins`, Chromium and WebKit), only a matching
 * origin is addressed: a post to every other one would be refused by the browser with a console error each time.
 * Returns how many origins were addressed (0 when standalone: nobody to tell).
 */
export function postEndEvent(event: EndEvent, context: TaskContext, parent: MessageTarget | null, parentOrigin?: string): number {
  if (!parent) return 0;
  const message = endEventMessage(event, context);
  let posted = 0;
  for (const origin of event.targetOrigins) {
    if (!isExactOrigin(origin)) continue;
    if (parentOrigin !== undefined && origin !== parentOrigin) continue;
    parent.postMessage(message, origin);
    posted += 1;
  }
  return posted;
}

/** An origin, not a pattern: scheme://host[:port] with nothing after. '*' and '/' are refused. */
function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}
