/** Every query key of the preview portal, written once (docs/architecture.md#server-state-through-queryoptions). */
export const previewKeys = {
  config: ['preview', 'config'] as const,
  assignments: ['preview', 'assignments'] as const,
  assignment: (uuid: string) => ['preview', 'assignments', uuid] as const,
  faults: ['preview', 'faults'] as const,
  partnerBackend: (uuid: string) => ['preview', 'partner-backend', uuid] as const,
};
