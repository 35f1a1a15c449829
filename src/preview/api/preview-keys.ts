/** Every query key of the preview portal, written once (STYLE habit 5). */
export const previewKeys = {
  config: ['preview', 'config'] as const,
  assignments: ['preview', 'assignments'] as const,
  assignment: (uuid: string) => ['preview', 'assignments', uuid] as const,
  faults: ['preview', 'faults'] as const,
};
