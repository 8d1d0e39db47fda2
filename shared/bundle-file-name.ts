/**
 * The name a batch's zip is saved under: its template and source ("Khuyến mãi Tết -
 * khach-hang.zip", "… - part2.zip" for a part), not its id; characters file systems refuse
 * become spaces. The id when neither is known.
 */
export function bundleFileName(
  batch: { id: string; templateName?: string | null; sourceName?: string | null },
  part?: number,
): string {
  const source = batch.sourceName?.replace(/\.(csv|xlsx|json)$/i, '');
  const stem = [batch.templateName, source]
    .filter(Boolean)
    .join(' - ')
    .replace(/[\\/:*?"<>|]+/g, ' ')
    // Control characters and any run of white space: one space.
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim()
    .slice(0, 120);
  return `${stem || batch.id}${part !== undefined ? ` - part${part}` : ''}.zip`;
}
