/** A non-2xx answer, with the server's `detail` (FastAPI shape) kept for display. */
export class HttpError extends Error {
  override name = 'HttpError';

  constructor(
    readonly status: number,
    readonly detail: unknown,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The `detail` of an error body as our servers, LangSmith and LangGraph send it (`{"detail":
 * …}`, a string or FastAPI's list of `{loc, msg}`); a body that is not such JSON is its own
 * detail. The one reader of error bodies for every feature.
 */
export function readErrorDetail(bodyText: string): unknown {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (typeof parsed === 'object' && parsed !== null && 'detail' in parsed) {
      return parsed.detail ?? null;
    }
    return null;
  } catch {
    // Not JSON: the body text itself is the best message there is.
    return bodyText;
  }
}

/** Reads a failed response into an HttpError whose message a person can read. */
export async function toHttpError(response: Response): Promise<HttpError> {
  const detail = readErrorDetail(await response.text().catch(() => ''));
  return new HttpError(response.status, detail, describeDetail(response.status, detail));
}

/** A detail in words: the string itself, or each FastAPI item as `field: message`. */
export function describeDetail(status: number, detail: unknown): string {
  if (typeof detail === 'string' && detail.trim() !== '') return detail;
  if (Array.isArray(detail)) {
    const messages = detail
      .map((item: unknown) => {
        if (typeof item !== 'object' || item === null) return String(item);
        const { loc, msg } = item as { loc?: unknown; msg?: unknown };
        const where = Array.isArray(loc) ? loc.filter((part) => part !== 'query').join('.') : '';
        return where ? `${where}: ${String(msg)}` : String(msg);
      })
      .filter(Boolean);
    if (messages.length > 0) return messages.join('; ');
  }
  return `The server answered ${status}.`;
}
