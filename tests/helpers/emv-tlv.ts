/**
 * An independent reader of EMVCo QR payloads for tests: fields as tag → value (two-digit tag,
 * two-digit length), and the payload's CRC recomputed with a table, not the engine's loop.
 */
export function parseEmv(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const tag = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(tag) || !Number.isInteger(length) || at + 4 + length > payload.length)
      throw new Error(`not EMV TLV at ${at}: ${payload.slice(at)}`);
    if (fields.has(tag)) throw new Error(`tag ${tag} appears twice`);
    fields.set(tag, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

const TABLE = Array.from({ length: 256 }, (_, n) => {
  let crc = n << 8;
  for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
  return crc & 0xffff;
});

/** Whether the payload ends with tag 63 holding the CRC-16/CCITT-FALSE of all before its value. */
export function hasValidCrc(payload: string): boolean {
  const body = payload.slice(0, -4);
  if (!body.endsWith('6304')) return false;
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(body))
    crc = ((crc << 8) & 0xffff) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc.toString(16).toUpperCase().padStart(4, '0') === payload.slice(-4);
}
