import type { AssignmentContext } from './assignment-types';

/**
 * The URL the worker portal opens: the iframe URL with, when `appendTaskContext` is on, the four spec 2.5 parameters
 * appended. The existing query and fragment are kept byte for byte (the flow designer may have appended variables of
 * its own, spec 2.4), so the string is extended rather than re-serialised through URLSearchParams.
 */
export function buildLaunchUrl(iframeUrl: string, context: AssignmentContext, appendTaskContext: boolean): string {
  if (!appendTaskContext) return iframeUrl;
  const hashAt = iframeUrl.indexOf('#');
  const base = hashAt === -1 ? iframeUrl : iframeUrl.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : iframeUrl.slice(hashAt);
  const params = [
    `wxWorkerUuid=${encodeURIComponent(context.workerUuid)}`,
    `wxAssignedTaskUuid=${encodeURIComponent(context.assignedTaskUuid)}`,
    `wxTaskFlowUuid=${encodeURIComponent(context.taskFlowUuid)}`,
    `wxCompanyUuid=${encodeURIComponent(context.companyUuid)}`,
  ].join('&');
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${params}${fragment}`;
}
