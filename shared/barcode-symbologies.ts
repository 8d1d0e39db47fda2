/**
 * The barcode symbologies a `barcode` layer draws (QR stays its own layer kind). The names are
 * the template format's; docs/templates.md, "Barcodes", says what value each takes.
 */
export const BARCODE_SYMBOLOGIES = [
  'gtin',
  'ean13',
  'ean8',
  'upca',
  'upce',
  'code128',
  'gs1-128',
  'code39',
  'itf14',
  'datamatrix',
  'gs1-datamatrix',
  'pdf417',
  'azteccode',
] as const;
