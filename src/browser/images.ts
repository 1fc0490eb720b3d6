// Re-encoding a screenshot (PNG from the browser) as the format a client asked for, and reading
// an image's size: sharp, in Node, so nothing is added to the page.
import sharp from 'sharp';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export async function encodeImage(image: Buffer, format: ImageFormat, quality: number): Promise<Buffer> {
  const s = sharp(image);
  if (format === 'png') return s.png().toBuffer();
  return format === 'jpeg' ? s.jpeg({ quality }).toBuffer() : s.webp({ quality }).toBuffer();
}

export async function imageSize(image: Buffer): Promise<{ width?: number; height?: number }> {
  const { width, height } = await sharp(image).metadata();
  return { width, height };
}
