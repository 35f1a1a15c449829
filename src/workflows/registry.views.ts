import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { StepViewProps } from './step-view-props';

/**
 * Page only: the screens of each workflow, loaded on demand so a workflow's components and texts are not part of
 * the task page's initial JavaScript (issue 4: at most 120 KB gzip).
 */
export const workflowViews: Record<string, LazyExoticComponent<ComponentType<StepViewProps>>> = {
  'safety-training': lazy(() => import('./safety-training/safety-training-step').then((module) => ({ default: module.SafetyTrainingStep }))),
};
