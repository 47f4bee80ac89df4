/**
 * The one way the site talks to the API (spec section 7): cookies sent, JSON body only
 * when there is a payload, and any non-OK answer becomes an error "<status>: <body>".
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** Seconds the server asked to wait (Retry-After of a 429 or 503), when it said. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`${status}: ${body}`);
    this.name = 'ApiError';
  }

  /** The `{ message, errors }` of an API error answer, when the body is one. */
  get payload(): { message?: string; errors?: Record<string, string> } | null {
    try {
      const parsed: unknown = JSON.parse(this.body);
      return typeof parsed === 'object' && parsed !== null ? (parsed as { message?: string }) : null;
    } catch {
      return null;
    }
  }
}

export async function apiRequest(method: string, url: string, data?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, {
    method,
    credentials: 'include',
    ...(data === undefined
      ? { headers }
      : { headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(data) }),
  });
  if (!response.ok) {
    const text = (await response.text()) || response.statusText;
    const retryAfter = Number(response.headers.get('Retry-After'));
    throw new ApiError(response.status, text, Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : null);
  }
  return response;
}

/** Default data query: GET the URL, parse JSON. */
export async function getJson<T>(url: string, headers?: Record<string, string>): Promise<T> {
  return (await (await apiRequest('GET', url, undefined, headers)).json()) as T;
}
