import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  JSONRPCMessageSchema,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { BoundedLineSplitter, type OversizedLine } from './bounded-lines.js';

/** The largest message read, as the SDK's own stdio transport allows. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/**
 * MCP over stdin/stdout: one JSON-RPC message per line, as the SDK's StdioServerTransport, but a
 * bad line is answered instead of ending the server. The SDK's reader closes the transport when
 * its buffer passes 10 MiB, and the server then exited 0 without a word; here a line over
 * `maxMessageBytes` is dropped as it arrives (memory stays bounded) and answered with a JSON-RPC
 * error naming the limit and the way around it, and a line that is not JSON-RPC with a parse
 * error. A stream that fails is kept in `failure` for the command to report.
 */
export class McpStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the transport ended, when it was not the client closing stdin. */
  failure: Error | undefined;

  private closed = false;
  private readonly lines: BoundedLineSplitter;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    private readonly maxMessageBytes = MAX_MESSAGE_BYTES,
  ) {
    this.lines = new BoundedLineSplitter(maxMessageBytes, {
      line: (text) => this.received(text),
      tooLong: (line) => this.refuseOversized(line),
    });
  }

  start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onStreamError);
    this.output.on('error', this.onStreamError);
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const flushed = this.output.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) reject(error);
      });
      if (flushed) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onStreamError);
    this.output.off('error', this.onStreamError);
    this.input.pause();
    this.onclose?.();
    return Promise.resolve();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    this.lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };

  private readonly onEnd = (): void => {
    this.lines.end();
    void this.close();
  };

  private readonly onStreamError = (error: Error): void => {
    this.failure ??= error;
    void this.close();
  };

  private received(text: string): void {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      this.answerError(
        null,
        ErrorCode.ParseError,
        'The line is not JSON: send one JSON-RPC message per line.',
      );
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(json);
    if (!message.success) {
      this.answerError(
        idOf(json),
        ErrorCode.InvalidRequest,
        'The message is not a JSON-RPC 2.0 request, notification or response.',
      );
      return;
    }
    this.onmessage?.(message.data);
  }

  private refuseOversized(line: OversizedLine): void {
    const limit = `${this.maxMessageBytes / (1024 * 1024)} MiB`;
    this.answerError(
      oversizedId(line),
      ErrorCode.InvalidRequest,
      `The message is ${(line.bytes / 1_000_000).toFixed(1)} MB; this server reads messages of at most ${limit}. ` +
        'For large data, pass a file instead of inline records: put it in a folder given with --allow and name it in sourceFile.',
      { code: 'payload-too-large', limitBytes: this.maxMessageBytes, messageBytes: line.bytes },
    );
  }

  private answerError(id: RequestId | null, code: number, message: string, data?: unknown): void {
    // JSON-RPC answers a request whose id cannot be read with a null id.
    const answer = {
      jsonrpc: '2.0',
      id,
      error: { code, message, ...(data === undefined ? {} : { data }) },
    } as unknown as JSONRPCMessage;
    this.send(answer).catch((error: unknown) => this.onStreamError(error as Error));
  }
}

function idOf(json: unknown): RequestId | null {
  const id = (json as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const ID = String.raw`"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")`;
/** SDK clients write the id last (`…,"jsonrpc":"2.0","id":7}`); others often first. */
const ID_AT_END = new RegExp(`${ID}\\s*\\}\\s*$`);
const ID_AT_START = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?` + ID);

/** The id of a message too long to parse, read from its ends when it stands at one. */
function oversizedId(line: OversizedLine): RequestId | null {
  const found = ID_AT_END.exec(line.tail) ?? ID_AT_START.exec(line.head);
  return found?.[1] === undefined ? null : (JSON.parse(found[1]) as RequestId);
}
