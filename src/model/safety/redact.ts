// Credentials out of text that leaves the process (answers, errors, logs). An endpoint URL may
// carry `user:pass@` or `?api-key=…`, and an upstream may quote the key it refused; none of it
// may reach a caller of the backend or a log line.

/** `text` with URL user info, bearer tokens, key-like query parameters and OpenAI-style keys masked. */
export function redactCredentials(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi, '$1***@')
    .replace(/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{4,}/gi, '$1 ***')
    .replace(/([?&](?:api[-_]?key|key|token|access[-_]?token|auth|sig|signature|password)=)[^&#\s]*/gi, '$1***')
    .replace(/\b(sk|rk|pk)-[A-Za-z0-9_-]{8,}/g, '$1-***');
}

/** A URL as it may be shown: no user info, no query. */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    return u.href;
  } catch {
    return redactCredentials(url);
  }
}
