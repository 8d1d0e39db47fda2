import type QRCode from 'qrcode';
import type { QRCode as QrSymbol, QRCodeErrorCorrectionLevel } from 'qrcode';

/**
 * The QR encoder, loaded by the first page that has a QR layer (prepareLayout) rather than by
 * every render thread as it starts: most templates draw none, and a command-line run that
 * renders a few rows waits for its thread's start.
 */
let encoder: typeof QRCode | undefined;

export async function loadQrEncoder(): Promise<void> {
  encoder ??= (await import('qrcode')).default;
}

export function qrEncoder(): typeof QRCode {
  if (!encoder)
    throw new Error('The QR encoder is loaded (prepareLayout) before a QR layer is drawn.');
  return encoder;
}

/**
 * A QR code's modules for a text, from the last few encoded in this thread: a row's code is
 * encoded once however often it is drawn (a badge's front and back, its PDF and the raster its
 * codes are checked on). Callers only read the symbol.
 */
export function encodeQr(text: string, errorCorrectionLevel: QRCodeErrorCorrectionLevel): QrSymbol {
  const key = `${errorCorrectionLevel}\n${text}`;
  const cached = recent.get(key);
  if (cached) return cached;
  const symbol = qrEncoder().create(text, { errorCorrectionLevel });
  if (recent.size >= RECENT_CODES) recent.delete(recent.keys().next().value ?? '');
  recent.set(key, symbol);
  return symbol;
}

/** The last QR codes encoded in this thread, oldest first. */
const recent = new Map<string, QrSymbol>();
const RECENT_CODES = 64;
