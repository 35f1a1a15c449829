import { Component, type ReactNode } from 'react';

interface Props {
  /** A new value (another step, another attempt) clears a caught error: the next screen gets its own chance. */
  resetKey: string;
  fallback: (error: unknown) => ReactNode;
  children: ReactNode;
}

interface State {
  caught: { error: unknown } | undefined;
  resetKey: string;
}

/**
 * Catches what a step's screen throws while it loads or renders (a step its workflow's screens do not render, their
 * chunk failing to download offline), so the page shows what happened and what to do. Uncaught, React unmounts the
 * whole page and the worker is left with a blank one. React offers error boundaries as class components only.
 */
export class StepScreenBoundary extends Component<Props, State> {
  override state: State = { caught: undefined, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { caught: { error } };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey === state.resetKey ? null : { caught: undefined, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    const { caught } = this.state;
    return caught ? this.props.fallback(caught.error) : this.props.children;
  }
}
