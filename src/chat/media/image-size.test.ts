import { imageSize } from './image-size.js';

const jpeg = (width: number, height: number) =>
  Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    // An APP0 segment of 16 bytes, then a baseline start of frame.
    Buffer.from([0xff, 0xe0, 0x00, 0x10]),
    Buffer.alloc(14),
    Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 0x03]),
    Buffer.alloc(16),
  ]);

test('sizes from the headers of JPEG, PNG, GIF and WebP; anything else is no image', () => {
  expect(imageSize(jpeg(1024, 768))).toEqual({ contentType: 'image/jpeg', width: 1024, height: 768 });
  const png = Buffer.alloc(40);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(png);
  png.write('IHDR', 12, 'latin1');
  png.writeUInt32BE(300, 16);
  png.writeUInt32BE(200, 20);
  expect(imageSize(png)).toEqual({ contentType: 'image/png', width: 300, height: 200 });
  const gif = Buffer.alloc(16);
  gif.write('GIF89a', 0, 'latin1');
  gif.writeUInt16LE(17, 6);
  gif.writeUInt16LE(9, 8);
  expect(imageSize(gif)).toEqual({ contentType: 'image/gif', width: 17, height: 9 });
  const webp = Buffer.alloc(40);
  webp.write('RIFF', 0, 'latin1');
  webp.write('WEBPVP8X', 8, 'latin1');
  webp.writeUIntLE(639, 24, 3);
  webp.writeUIntLE(479, 27, 3);
  expect(imageSize(webp)).toEqual({ contentType: 'image/webp', width: 640, height: 480 });
  expect(imageSize(Buffer.from('%PDF-1.7 not an image at all'))).toBeNull();
  expect(imageSize(jpeg(0, 10))).toBeNull();
  expect(imageSize(Buffer.from([0xff, 0xd8, 0xff]))).toBeNull();
});
