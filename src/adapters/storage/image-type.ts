/**
 * The type of an uploaded image, told by its content (magic bytes), never by the Content-Type the
 * client sent. SVG is not accepted: it can carry scripts.
 */
export const IMAGE_TYPES = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
} as const;
export type ImageMime = keyof typeof IMAGE_TYPES;

const MIME_BY_EXT = new Map<string, ImageMime>(
  Object.entries(IMAGE_TYPES).map(([mime, ext]) => [ext, mime as ImageMime]),
);

/** The content type of a stored key's extension (keys are `<hash>.<ext>`). */
export const mimeOfExtension = (ext: string): ImageMime | null => MIME_BY_EXT.get(ext) ?? null;

const startsWith = (b: Buffer, bytes: number[], at = 0) =>
  b.length >= at + bytes.length && bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Buffer, at: number, text: string) =>
  b.length >= at + text.length && b.toString('latin1', at, at + text.length) === text;

/** The image type of `b` by its signature, or null when it is none of the accepted ones. */
export function sniffImage(b: Buffer): ImageMime | null {
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'image/gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  // ISO BMFF: a leading `ftyp` box whose major or a compatible brand is avif (still) or avis (sequence)
  if (ascii(b, 4, 'ftyp') && b.length >= 16) {
    const size = Math.min(b.readUInt32BE(0), b.length, 4096);
    for (let at = 8; at + 4 <= size; at += 4) {
      if (at === 12) continue; // minor version, not a brand
      const brand = b.toString('latin1', at, at + 4);
      if (brand === 'avif' || brand === 'avis') return 'image/avif';
    }
  }
  return null;
}
