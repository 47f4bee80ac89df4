/** Posts a lead to a running API as the site's form does (JSON): the answer, and how long it took. */
export async function postLead(baseUrl: string, lead: Record<string, unknown>) {
  const started = Date.now();
  const response = await fetch(`${baseUrl}/api/ebook-request`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cognome: 'Prova', gdprConsent: true, ...lead }),
  });
  const body = (await response.json()) as { id: number; redirectTo: string; message?: string };
  const answeredAt = Date.now();
  return { status: response.status, body, ms: answeredAt - started, answeredAt };
}
