/**
 * POSTs JSON to a console route and returns its JSON answer; a refusal (4xx/5xx)
 * becomes an Error carrying the server's own message, which forms show as it is.
 */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const data = (await response.json().catch(() => ({ message: `HTTP ${response.status}` }))) as T & {
    message?: string;
  };
  if (!response.ok) throw new Error(data.message ?? `HTTP ${response.status}`);
  return data;
}
