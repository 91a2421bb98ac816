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

/** Reads a failed response into an HttpError whose message a person can read. */
export async function toHttpError(response: Response): Promise<HttpError> {
  let detail: unknown = null;
  const text = await response.text().catch(() => '');
  try {
    detail = (JSON.parse(text) as { detail?: unknown }).detail ?? null;
  } catch {
    detail = text;
  }
  return new HttpError(response.status, detail, describeDetail(response.status, detail));
}

function describeDetail(status: number, detail: unknown): string {
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
