/** One issue of a rejected body: the dotted path of the field and what is wrong with it. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** The error body of every emulator answer: `{"error":{"code":"snake_case","message":"..."}}` (DESIGN, STYLE habit 9). */
export interface ErrorBody {
  error: { code: string; message: string; field?: string; issues?: FieldIssue[] };
}

/**
 * A refusal with an HTTP status and a code. Spec 7 shows no error codes or body shape, so these are the emulator's own;
 * clients must branch on the status, not on the code.
 */
export class EmulatorError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details: { field?: string; issues?: FieldIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'EmulatorError';
  }

  toBody(): ErrorBody {
    const { field, issues } = this.details;
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(field === undefined ? {} : { field }),
        ...(issues === undefined ? {} : { issues }),
      },
    };
  }
}

export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}
