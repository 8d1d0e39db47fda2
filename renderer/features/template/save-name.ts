/**
 * The file name "Save image…" suggests: the template's name as people know it ("Flash sale 11.11
 * (copy)-square.png"), not its id (a copy's id is a meaningless wtpl_…). Characters no desktop
 * accepts in a name are dropped; a name with nothing left falls back to the id.
 */
export function saveFileName(
  template: { id: string; name: string },
  layout: string,
  extension: string,
): string {
  const stem =
    template.name
      .normalize('NFC')
      // Path separators, characters Windows refuses, and control characters.
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
      .replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+|\.+$/g, '')
      .slice(0, 100)
      .trim() || template.id.replace(/^(w?tmpl|wtpl)_/, '');
  return `${stem}-${layout}.${extension}`;
}
