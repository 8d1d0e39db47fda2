import regular from '@expo-google-fonts/be-vietnam-pro/400Regular/BeVietnamPro_400Regular.ttf?url';
import medium from '@expo-google-fonts/be-vietnam-pro/500Medium/BeVietnamPro_500Medium.ttf?url';
import semiBold from '@expo-google-fonts/be-vietnam-pro/600SemiBold/BeVietnamPro_600SemiBold.ttf?url';

/**
 * The UI ships its own font (Be Vietnam Pro, SIL OFL) so Vietnamese marks look the same on
 * every machine and nothing is fetched from the network.
 */
export function loadUiFonts(): void {
  const faces: [string, string][] = [
    [regular, '400'],
    [medium, '500'],
    [semiBold, '600'],
  ];
  const css = faces
    .map(
      ([url, weight]) =>
        `@font-face{font-family:'Be Vietnam Pro';src:url('${url}') format('truetype');font-weight:${weight};font-style:normal;font-display:swap}`,
    )
    .join('\n');
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
}
