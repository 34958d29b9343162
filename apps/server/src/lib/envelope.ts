/** The spec's response envelope, {success, data, error}; `message` repeats the error for clients that read it. */
export type Envelope<T> =
  | { success: true; data: T; error: null }
  | { success: false; data: null; error: string; message: string; code: string; details?: unknown };

export function ok<T>(data: T): Envelope<T> {
  return { success: true, data, error: null };
}

/** The text of ok(data) for data that is JSON text already: the envelope's own text around it. */
export function okText(dataText: string): string {
  return JSON.stringify(ok(null)).replace('"data":null', () => `"data":${dataText}`);
}

export function failure(code: string, message: string, details?: unknown): Envelope<never> {
  return { success: false, data: null, error: message, message, code, ...(details ? { details } : {}) };
}
