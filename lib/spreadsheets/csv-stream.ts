/**
 * A CSV as a byte stream, batch by batch: the header line, then each batch as one chunk. The next batch is asked for
 * before this one is sent (one in flight while the socket takes this one, one queued at most); a failure errors the
 * stream, so the client sees an incomplete transfer, never a short file that looks whole. A caller that wants a
 * database away answered as an error awaits `first` before answering.
 */
export function batchedCsvStream<Row>(options: {
  /** The header line, without its CRLF. */
  header: string;
  first: Promise<Row[]>;
  /** The batch after `rows`, or undefined when `rows` was the last. */
  next: (rows: Row[]) => Promise<Row[]> | undefined;
  /** The batch's lines, each ending in CRLF: one string per batch. */
  lines: (rows: Row[]) => string;
}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  // pull() awaits each batch; one that fails before then must not be an unhandled rejection.
  const quiet = (batch: Promise<Row[]> | undefined) => {
    batch?.catch(() => undefined);
    return batch;
  };
  let pending = quiet(options.first);
  let header = true;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (header) {
          header = false;
          controller.enqueue(encoder.encode(`${options.header}\r\n`));
          return;
        }
        if (!pending) {
          controller.close();
          return;
        }
        const rows = await pending;
        pending = quiet(options.next(rows));
        const text = options.lines(rows);
        if (text) controller.enqueue(encoder.encode(text));
        if (!pending) controller.close();
      },
      cancel() {
        pending = undefined;
      },
    },
    { highWaterMark: 1 },
  );
}
