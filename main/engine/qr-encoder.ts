import type QRCode from 'qrcode';

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
