/**
 * Where the preview loads the task page from: this server under its other loopback name, so the portal and the page
 * are two origins as in production and a wrong postMessage target or a missing frame-ancestors entry fails
 * here rather than in the worker portal. On any other host there is no second name to use: same origin, said so.
 */
export function taskPageOrigin(location: Pick<Location, 'protocol' | 'hostname' | 'port' | 'origin'>): {
  origin: string;
  crossOrigin: boolean;
} {
  const port = location.port === '' ? '' : `:${location.port}`;
  if (location.hostname === 'localhost') return { origin: `${location.protocol}//127.0.0.1${port}`, crossOrigin: true };
  if (location.hostname === '127.0.0.1') return { origin: `${location.protocol}//localhost${port}`, crossOrigin: true };
  return { origin: location.origin, crossOrigin: false };
}

/**
 * The task page URL with the four docs/platform.md#task-context parameters, as the portal appends them when "Append task context" is on,
 * after the flow designer's `workflow` variable when there is one (docs/platform.md#partner-task-configuration).
 */
export function taskPageUrl(
  origin: string,
  context: { wxWorkerUuid: string; wxAssignedTaskUuid: string; wxTaskFlowUuid: string; wxCompanyUuid: string },
  workflow?: string,
): string {
  const query = new URLSearchParams({ ...(workflow === undefined ? {} : { workflow }), ...context }).toString();
  return `${origin}/?${query}`;
}
