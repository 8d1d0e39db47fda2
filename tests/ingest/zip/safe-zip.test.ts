import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SafeZip, type ZipProfile } from '../../../main/ingest/zip/safe-zip.js';
import { ZIP_LIMITS, type ArchiveLimits } from '../../../main/ingest/zip/zip-limits.js';
import type { ZipRefusal } from '../../../main/ingest/zip/zip-refusal.js';
import {
  deflatedEntry,
  repeatedEntry,
  storedEntry,
  writeZip,
  type ZipEntrySpec,
} from '../../helpers/zip-builder.js';
import { corpus, createTempDir } from '../fixtures.js';

const temp = createTempDir();
afterAll(() => temp.remove());

/** The reader's own refusal, carried on the error so each test can check the reason. */
class Refused extends Error {
  constructor(readonly refusal: ZipRefusal) {
    super(refusal.reason);
  }
}

function profile(
  overrides: Partial<Omit<ZipProfile, 'limits'>> & { limits?: Partial<ArchiveLimits> } = {},
): ZipProfile {
  return {
    backslashes: 'refuse',
    ...overrides,
    limits: { ...ZIP_LIMITS.spreadsheet, ...overrides.limits },
    wording: (refusal: ZipRefusal) => new Refused(refusal),
  };
}

let zips = 0;
function zipOf(entries: ZipEntrySpec[]): string {
  zips += 1;
  return temp.file(`archive-${zips}.zip`, writeZip(entries));
}

async function refusal(work: Promise<unknown>): Promise<ZipRefusal> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Refused);
  return (error as Refused).refusal;
}

async function readAll(zip: SafeZip, name: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await zip.openStream(name)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('the safe-zip reader', () => {
  it('lists files without their folders and reads stored and deflated entries', async () => {
    const file = zipOf([
      storedEntry('photos/', ''),
      storedEntry('photos/a.txt', 'stored text'),
      deflatedEntry('photos/b.txt', 'deflated text '.repeat(1000)),
    ]);
    const zip = await SafeZip.open(file, profile());
    try {
      expect(zip.names).toEqual(['photos/a.txt', 'photos/b.txt']);
      expect((await readAll(zip, 'photos/a.txt')).toString()).toBe('stored text');
      expect((await zip.read('photos/b.txt', 1 << 20)).toString()).toBe(
        'deflated text '.repeat(1000),
      );
      expect(zip.findIgnoringCase('PHOTOS/B.TXT')).toBe('photos/b.txt');
      expect(zip.findIgnoringCase('photos/')).toBeUndefined();
    } finally {
      zip.close();
    }
  });

  it.each([
    ['../evil.txt', 'invalid relative path'],
    ['a/../../evil.txt', 'invalid relative path'],
    ['/etc/passwd', 'absolute path'],
    ['C:/Windows/win.ini', 'absolute path'],
    ['photos\\a.png', 'backslash'],
    ['CON.png', 'reserved'],
    ['photos/aux', 'reserved'],
    ['a//b.png', 'reserved'],
    ['a/./b.png', 'reserved'],
    ['photos/a:b.png', 'reserved'],
    ['tab\there.png', 'reserved'],
  ])('refuses the entry name %j (%s) before reading anything', async (name, problem) => {
    const file = zipOf([deflatedEntry('fine.txt', 'x'), deflatedEntry(name, 'x')]);
    expect(await refusal(SafeZip.open(file, profile()))).toEqual({
      reason: 'unsafe-name',
      name,
      problem,
    });
  });

  it('takes backslashes as folder separators when the profile says so', async () => {
    const file = zipOf([deflatedEntry('xl\\worksheets\\sheet1.xml', '<worksheet/>')]);
    const zip = await SafeZip.open(file, profile({ backslashes: 'separator' }));
    try {
      expect(zip.names).toEqual(['xl/worksheets/sheet1.xml']);
      expect((await readAll(zip, 'xl/worksheets/sheet1.xml')).toString()).toBe('<worksheet/>');
    } finally {
      zip.close();
    }
  });

  it('refuses symbolic links', async () => {
    const link = { ...storedEntry('photos/link.png', '/etc/passwd'), unixMode: 0o120777 };
    const plain = { ...storedEntry('photos/a.png', 'x'), unixMode: 0o100644 };
    expect(await refusal(SafeZip.open(zipOf([plain, link]), profile()))).toEqual({
      reason: 'symlink',
      name: 'photos/link.png',
    });
  });

  it.each([
    ['names that differ only by case', 'Photos/A.png', 'photos/a.png'],
    ['NFC and NFD spellings of one name', 'Đồng.png'.normalize('NFC'), 'Đồng.png'.normalize('NFD')],
    ['a folder and a file of one name', 'photos/', 'photos'],
  ])('refuses %s as duplicates', async (_case, first, second) => {
    const file = zipOf([storedEntry(first, 'a'), storedEntry(second, 'b')]);
    expect(await refusal(SafeZip.open(file, profile()))).toEqual({
      reason: 'duplicate',
      name: second,
    });
  });

  it('refuses encrypted entries and compression methods it cannot read, unless they are never read', async () => {
    const encrypted = { ...deflatedEntry('secret.txt', 'x'), flags: 0x1 };
    const bzip2 = { ...deflatedEntry('odd.txt', 'x'), method: 12 };
    expect(await refusal(SafeZip.open(zipOf([encrypted]), profile()))).toEqual({
      reason: 'encrypted',
      name: 'secret.txt',
    });
    expect(await refusal(SafeZip.open(zipOf([bzip2]), profile()))).toEqual({
      reason: 'compression-method',
      name: 'odd.txt',
      method: 12,
    });
    const onlyPhotos = profile({ reads: (name) => name.endsWith('.png') });
    const zip = await SafeZip.open(
      zipOf([encrypted, bzip2, deflatedEntry('a.png', 'png')]),
      onlyPhotos,
    );
    try {
      expect(zip.names).toEqual(['secret.txt', 'odd.txt', 'a.png']);
      expect((await readAll(zip, 'a.png')).toString()).toBe('png');
      expect(await refusal(zip.openStream('secret.txt'))).toEqual({
        reason: 'missing',
        name: 'secret.txt',
      });
    } finally {
      zip.close();
    }
  });

  it('refuses more entries than the limit from the declared count', async () => {
    const file = zipOf(['a', 'b', 'c', 'd'].map((name) => storedEntry(name, name)));
    expect(await refusal(SafeZip.open(file, profile({ limits: { maxEntries: 3 } })))).toEqual({
      reason: 'too-many-entries',
      count: 4,
      limit: 3,
    });
  });

  it('checks declared sizes before inflating: per entry, in total and by ratio', async () => {
    const zeros = await repeatedEntry('zeros.bin', '', '\0'.repeat(1 << 16), 64, '');
    expect(
      await refusal(SafeZip.open(zipOf([zeros]), profile({ limits: { maxEntryBytes: 1 << 20 } }))),
    ).toMatchObject({ reason: 'entry-too-large', name: 'zeros.bin', size: 4 << 20 });
    const halves = [storedEntry('a', Buffer.alloc(600)), storedEntry('b', Buffer.alloc(600))];
    expect(
      await refusal(SafeZip.open(zipOf(halves), profile({ limits: { maxTotalBytes: 1000 } }))),
    ).toEqual({ reason: 'total-too-large', limit: 1000 });
    expect(await refusal(SafeZip.open(zipOf([zeros]), profile()))).toMatchObject({
      reason: 'ratio',
      name: 'zeros.bin',
      limit: 100,
    });
    // What the caller never reads is listed and name-checked, but its size is not its concern.
    const zip = await SafeZip.open(
      zipOf([zeros, deflatedEntry('small.txt', 'ok')]),
      profile({ reads: (name) => name === 'small.txt' }),
    );
    zip.close();
  });

  it('stops an entry that inflates past what its header declares', async () => {
    const liar = { ...deflatedEntry('liar.txt', Buffer.alloc(50_000, 7)), declaredSize: 4096 };
    const zip = await SafeZip.open(zipOf([liar]), profile());
    try {
      expect(await refusal(readAll(zip, 'liar.txt'))).toEqual({
        reason: 'inflates-past-declared',
        name: 'liar.txt',
        allowed: 4096,
      });
    } finally {
      zip.close();
    }
  });

  it('counts the bytes of every read against the total, until told to count afresh', async () => {
    const entries = ['a', 'b', 'c'].map((name) => deflatedEntry(name, Buffer.alloc(400, 1)));
    // 1,200 declared passes at open; a second read of one file is 400 bytes past the total.
    const zip = await SafeZip.open(zipOf(entries), profile({ limits: { maxTotalBytes: 1200 } }));
    try {
      await readAll(zip, 'a');
      await readAll(zip, 'b');
      await readAll(zip, 'c');
      expect(await refusal(readAll(zip, 'a'))).toEqual({
        reason: 'inflates-past-total',
        limit: 1200,
      });
      zip.countAfresh();
      expect((await readAll(zip, 'a')).length).toBe(400);
    } finally {
      zip.close();
    }
  });

  it('reports an entry whose bytes do not match its CRC-32 as damaged', async () => {
    const damaged = { ...deflatedEntry('data.csv', 'sku,price\nA-1,10\n'), crc: 0x12345678 };
    const zip = await SafeZip.open(zipOf([damaged]), profile());
    try {
      expect(await refusal(readAll(zip, 'data.csv'))).toEqual({
        reason: 'damaged',
        detail: 'data.csv is damaged (its checksum does not match)',
      });
    } finally {
      zip.close();
    }
  });

  it('refuses a small part read whole past its byte budget before inflating it', async () => {
    const zip = await SafeZip.open(zipOf([deflatedEntry('big.json', 'x'.repeat(5000))]), profile());
    try {
      expect(await refusal(zip.read('big.json', 1024))).toEqual({
        reason: 'part-too-large',
        name: 'big.json',
        limit: 1024,
      });
    } finally {
      zip.close();
    }
  });

  it('refuses every file of the yauzl failure corpus with a refusal, never a crash', async () => {
    const dir = corpus('zip/failure');
    const reasons = new Set<string>();
    for (const name of fs.readdirSync(dir)) {
      const outcome = await (async () => {
        const zip = await SafeZip.open(path.join(dir, name), profile());
        try {
          for (const file of zip.names) await readAll(zip, file);
        } finally {
          zip.close();
        }
      })().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(outcome, name).toBeInstanceOf(Refused);
      reasons.add((outcome as Refused).refusal.reason);
    }
    expect([...reasons].sort()).toEqual([
      'compression-method',
      'damaged',
      'entry-too-large',
      'inflates-past-declared',
      'ratio',
      'unsafe-name',
    ]);
  });

  it('reads every file of the yauzl success corpus, CRC-32 checked, but an encrypted or lying one', async () => {
    const dir = corpus('zip/success');
    const refused: Record<string, string> = {
      'traditional-encryption.zip': 'encrypted',
      // A stored entry declaring 1,024 bytes and holding none: yauzl reads it only when told
      // not to validate sizes.
      'wrong-entry-sizes.zip': 'damaged',
    };
    for (const name of fs.readdirSync(dir)) {
      const opening = SafeZip.open(path.join(dir, name), profile({ backslashes: 'separator' }));
      if (refused[name]) {
        expect((await refusal(opening)).reason, name).toBe(refused[name]);
        continue;
      }
      const zip = await opening;
      try {
        for (const file of zip.names) {
          expect((await readAll(zip, file)).length, `${name}: ${file}`).toBe(zip.file(file)?.size);
        }
      } finally {
        zip.close();
      }
    }
  });
});
