/** What is kept of a line over the limit: its size and its two ends, for a useful answer. */
export interface OversizedLine {
  /** Bytes the line held, its newline excluded. */
  bytes: number;
  /** Its first and last bytes (at most `EDGE_BYTES` each), as text. */
  head: string;
  tail: string;
}

export interface LineHandlers {
  line(text: string): void;
  tooLong(line: OversizedLine): void;
}

const EDGE_BYTES = 256;

/**
 * Splits a byte stream into newline-ended lines holding at most `maxBytes` of one line in
 * memory: past the limit the rest of that line is counted and dropped, and the line is reported
 * as too long when its newline arrives, so the stream goes on with the next line. A trailing
 * CR is dropped (CRLF), blank lines are skipped.
 */
export class BoundedLineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private overflow: { bytes: number; head: Buffer; tail: Buffer } | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly handlers: LineHandlers,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end === -1) {
        if (start < chunk.length) this.add(chunk.subarray(start));
        return;
      }
      this.add(chunk.subarray(start, end));
      this.finishLine();
      start = end + 1;
    }
  }

  /** The input ended: a last line without its newline still counts. */
  end(): void {
    if (this.size > 0 || this.overflow) this.finishLine();
  }

  private add(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.overflow) {
      this.overflow.bytes += piece.length;
      this.overflow.tail = lastBytes(Buffer.concat([this.overflow.tail, lastBytes(piece)]));
      return;
    }
    if (this.size + piece.length <= this.maxBytes) {
      this.parts.push(piece);
      this.size += piece.length;
      return;
    }
    const kept = Buffer.concat([...this.parts, piece.subarray(0, EDGE_BYTES)]);
    this.overflow = {
      bytes: this.size + piece.length,
      head: kept.subarray(0, EDGE_BYTES),
      tail: lastBytes(Buffer.concat([lastBytes(Buffer.concat(this.parts)), lastBytes(piece)])),
    };
    this.parts = [];
    this.size = 0;
  }

  private finishLine(): void {
    const { overflow } = this;
    const text = overflow ? '' : Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    this.overflow = undefined;
    if (overflow) {
      this.handlers.tooLong({
        bytes: overflow.bytes,
        head: overflow.head.toString('utf8'),
        tail: overflow.tail.toString('utf8'),
      });
      return;
    }
    const line = text.endsWith('\r') ? text.slice(0, -1) : text;
    if (line.trim() !== '') this.handlers.line(line);
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length > EDGE_BYTES ? buffer.subarray(buffer.length - EDGE_BYTES) : buffer;
}
