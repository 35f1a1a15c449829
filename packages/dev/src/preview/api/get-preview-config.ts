import { queryOptions } from '@tanstack/react-query';
import { previewConfigSchema, type PreviewConfig } from '@partner-task-kit/workflow/contract';
import { jsonRequest } from './json-request.ts';
import { previewKeys } from './preview-keys.ts';

/** GET /api/preview: emulator or platform mode, and the end event the server fires. */
function getPreviewConfig(): Promise<PreviewConfig> {
  return jsonRequest('GET', '/api/preview', previewConfigSchema);
}

export function previewConfigQueryOptions() {
  return queryOptions({ queryKey: previewKeys.config, queryFn: getPreviewConfig, staleTime: Infinity });
}
