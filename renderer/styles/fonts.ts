import regular from '@expo-google-fonts/be-vietnam-pro/400Regular/BeVietnamPro_400Regular.ttf?url';
import medium from '@expo-google-fonts/be-vietnam-pro/500Medium/BeVietnamPro_500Medium.ttf?url';
import semiBold from '@expo-google-fonts/be-vietnam-pro/600SemiBold/BeVietnamPro_600SemiBold.ttf?url';

/**
 * The UI ships its own font (Be Vietnam Pro, SIL OFL) so Vietnamese marks look the same on
 * every machine and nothing is fetched from the network. Added as FontFace objects rather than
 * a <style> element: the UI's Content-Security-Policy allows no inline styles.
 */
export function loadUiFonts(): void {
  const faces: [string, string][] = [
    [regular, '400'],
    [medium, '500'],
    [semiBold, '600'],
  ];
  for (const [url, weight] of faces) {
    const face = new FontFace('Be Vietnam Pro', `url("${url}") format("truetype")`, {
      weight,
      style: 'normal',
      display: 'swap',
    });
    document.fonts.add(face);
  }
}
