// How a route says it is going away (docs/versioning.md): RFC 9745's Deprecation header (since when, as
// `@<unix seconds>`), RFC 8594's Sunset (when it stops answering, an HTTP date) and a Link to what to use instead.
// A route that sets `deprecation` in lib/http/routes.ts carries them on every answer, errors included.

export interface Deprecation {
  /** When it was deprecated (ISO 8601). */
  since: string;
  /** When it stops answering (ISO 8601), if decided. */
  sunset?: string;
  /** Where the replacement or the changelog entry is documented. */
  link: string;
}

export function deprecationHeaders(deprecation: Deprecation | undefined): Record<string, string> {
  if (!deprecation) return {};
  const since = Date.parse(deprecation.since);
  if (Number.isNaN(since)) throw new Error(`deprecation.since is no date: ${deprecation.since}`);
  const headers: Record<string, string> = {
    deprecation: `@${Math.floor(since / 1000)}`,
    link: `<${deprecation.link}>; rel="deprecation"; type="text/html"`,
  };
  if (deprecation.sunset) {
    const sunset = Date.parse(deprecation.sunset);
    if (Number.isNaN(sunset) || sunset <= since)
      throw new Error(`deprecation.sunset must be a date after since: ${deprecation.sunset}`);
    headers.sunset = new Date(sunset).toUTCString();
  }
  return headers;
}
