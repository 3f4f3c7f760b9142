import {
  CharCodes,
  PDFCrossRefSection,
  PDFHeader,
  PDFTrailer,
  PDFTrailerDict,
  type PDFContext,
  type PDFObject,
  type PDFRef,
} from 'pdf-lib';

// A PDF written as it is drawn: each finished page's objects are serialised into the output and dropped from
// pdf-lib's context, so that a 5,000-label document holds a chunk of pages as objects and the rest only as bytes
// (pdf-lib's own save() keeps every object of the document until the end, then copies them all into one buffer,
// yielding to the event loop every 50 objects). The same file layout as pdf-lib's PDFWriter: header, `n 0 obj`
// … `endobj` per object, a classic cross-reference table (entries sorted by object number), trailer.

export class PdfOutput {
  private readonly parts: Uint8Array[] = [];
  private length = 0;
  /** Every object written and its byte offset, for the cross-reference table. */
  private readonly offsets: [PDFRef, number][] = [];

  constructor(private readonly context: PDFContext) {
    const header = PDFHeader.forVersion(1, 7);
    const bytes = new Uint8Array(header.sizeInBytes() + 2);
    const n = header.copyBytesInto(bytes, 0);
    bytes[n] = CharCodes.Newline;
    bytes[n + 1] = CharCodes.Newline;
    this.push(bytes);
  }

  private push(bytes: Uint8Array): void {
    this.parts.push(bytes);
    this.length += bytes.length;
  }

  /** Serialises these indirect objects (in this order) and removes them from the context. */
  write(refs: PDFRef[]): void {
    const objects: [PDFRef, PDFObject][] = [];
    let size = 0;
    for (const ref of refs) {
      const object = this.context.lookup(ref);
      if (!object) continue;
      objects.push([ref, object]);
      // `n g obj\n` … `\nendobj\n\n`, as PDFWriter.computeIndirectObjectSize counts it
      size += ref.sizeInBytes() + 3 + object.sizeInBytes() + 9;
    }
    if (objects.length === 0) return;
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const [ref, object] of objects) {
      this.offsets.push([ref, this.length + at]);
      at += copyAscii(`${ref.objectNumber} ${ref.generationNumber} obj\n`, bytes, at);
      at += object.copyBytesInto(bytes, at);
      at += copyAscii('\nendobj\n\n', bytes, at);
      this.context.delete(ref);
    }
    this.push(bytes);
  }

  /** Writes every object still in the context, the cross-reference table and the trailer; returns the file as one buffer. */
  finish(): Uint8Array {
    this.write(this.context.enumerateIndirectObjects().map(([ref]) => ref));
    const xref = PDFCrossRefSection.create();
    for (const [ref, offset] of [...this.offsets].sort((a, b) => a[0].objectNumber - b[0].objectNumber))
      xref.addEntry(ref, offset);
    const { context } = this;
    const trailerDict = PDFTrailerDict.of(
      context.obj({
        Size: context.largestObjectNumber + 1,
        Root: context.trailerInfo.Root,
        Encrypt: context.trailerInfo.Encrypt,
        Info: context.trailerInfo.Info,
        ID: context.trailerInfo.ID,
      }),
    );
    const trailer = PDFTrailer.forLastCrossRefSectionOffset(this.length);
    const tail = new Uint8Array(xref.sizeInBytes() + 1 + trailerDict.sizeInBytes() + 2 + trailer.sizeInBytes());
    let at = xref.copyBytesInto(tail, 0);
    tail[at++] = CharCodes.Newline;
    at += trailerDict.copyBytesInto(tail, at);
    tail[at++] = CharCodes.Newline;
    tail[at++] = CharCodes.Newline;
    trailer.copyBytesInto(tail, at);
    this.push(tail);
    // One buffer of its own (transferable to the serving thread as it is), the parts released as they are copied.
    const file = new Uint8Array(this.length);
    let offset = 0;
    for (let i = 0; i < this.parts.length; i += 1) {
      const part = this.parts[i]!;
      file.set(part, offset);
      offset += part.length;
      this.parts[i] = EMPTY;
    }
    this.parts.length = 0;
    return file;
  }
}

const EMPTY = new Uint8Array(0);

function copyAscii(text: string, into: Uint8Array, at: number): number {
  for (let i = 0; i < text.length; i += 1) into[at + i] = text.charCodeAt(i);
  return text.length;
}
