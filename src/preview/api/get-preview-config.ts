import { queryOptions } from '@tanstack/react-query';
import { previewConfigSchema, type PreviewConfig } from '../../contract/preview-config';
import { jsonRequest } from './json-request';
import { previewKeys } from './preview-keys';

/** GET /api/preview: emulator or platform mode, and the end event the server fires. */
function getPreviewConfig(): Promise<PreviewConfig> {
  return jsonRequest('GET', '/api/preview', previewConfigSchema);
}

export function previewConfigQueryOptions() {
  return queryOptions({ queryKey: previewKeys.config, queryFn: getPreviewConfig, staleTime: Infinity });
}
