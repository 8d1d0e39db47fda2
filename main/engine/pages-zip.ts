/** Entry times fixed, so the same pages give the same zip bytes. */
const ENTRY_TIME = new Date(Date.UTC(2020, 0, 1));

/**
 * The numbered images of a multi-page layout's raster render as one zip: `1.png`, `2.png`, …
 * Stored, not deflated: the images are compressed already.
 */
export async function zipPages(pages: Buffer[], extension: string): Promise<Buffer> {
  // Loaded by the first multi-page raster render, not by every render thread as it starts.
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  pages.forEach((bytes, index) => {
    zip.addBuffer(bytes, `${index + 1}.${extension}`, {
      compress: false,
      mtime: ENTRY_TIME,
      mode: 0o100644,
    });
  });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}
