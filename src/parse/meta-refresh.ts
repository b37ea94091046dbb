/**
 * `<meta http-equiv=refresh content="N; url=...">`: the parser makes its URL
 * a link (tag 'meta'), a moved page's pointer.
 */

/**
 * The URL of a `<meta http-equiv=refresh>` content value, as HTML's
 * "shared declarative refresh steps" read it: a delay (digits and dots),
 * then `;` or `,`, then optionally `url=`, then the URL (quoted or not).
 * Null when there is no delay or no URL (a refresh of the page itself).
 */
export function refreshUrl(content: string): string | null {
  const m = /^\s*[0-9.]+\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  if (m === null) return null;
  let url = m[1];
  const q = url[0];
  if (q === '"' || q === "'") {
    const end = url.indexOf(q, 1);
    url = end === -1 ? url.slice(1) : url.slice(1, end);
  }
  url = url.trim();
  return url === '' ? null : url;
}
