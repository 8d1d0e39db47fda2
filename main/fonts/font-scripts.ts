import type { FontScript } from '../../shared/font-schemas.js';
import { coversCodePoint, type CoverageRanges } from '../engine/font-coverage.js';

/**
 * Which scripts a font can set text in, judged by samples: a script counts when the font draws
 * every character of its sample. The samples are what a user of that script would miss first.
 */

const VIETNAMESE_LOWER = 'àáảãạăằắẳẵặâầấẩẫậđèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵ';

const SAMPLES: ReadonlyArray<readonly [FontScript, string]> = [
  ['latin', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789' + ' .,:;!?\'"()-&/%@'],
  ['vietnamese', VIETNAMESE_LOWER + VIETNAMESE_LOWER.toUpperCase() + '₫'],
  [
    'latin-extended',
    // Western European (Latin-1), then Polish, Czech, Turkish, Hungarian, Baltic and French.
    'ÀÁÂÄÅÆÇÈÉÊËÌÍÎÏÑÒÓÔÖØÙÚÛÜÝßàáâäåæçèéêëìíîïñòóôöøùúûüýÿ' +
      'ĄąĆćĘęŁłŃńŚśŹźŻż' +
      'ČčĎďĚěŇňŘřŠšŤťŮůŽž' +
      'ĞğİıŞş' +
      'ŐőŰű' +
      'ĀāĒēĪīŪū' +
      'ŒœŸ',
  ],
  ['cyrillic', 'АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя'],
  ['greek', 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρςστυφχψω'],
  ['emoji', '😀🎉❤👍🔥⭐'],
];

export function scriptsCovered(coverage: CoverageRanges): FontScript[] {
  return SAMPLES.filter(([, sample]) =>
    [...sample].every((char) => coversCodePoint(coverage, char.codePointAt(0)!)),
  ).map(([script]) => script);
}
