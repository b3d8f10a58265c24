// The media headers the Bot API reads: an MP4's duration and picture size (both header versions, the movie box
// after the media data), an Ogg Opus or Vorbis stream's duration; anything else has no facts.
import { mediaFacts } from '../../../src/chat/bots/api/media-facts.js';
import { box, ftyp, mvhd, oggPage, tkhd } from './file-helpers.js';

test('an MP4 states its duration and its video track size, whatever the header version and box order', () => {
  const sound = box('trak', tkhd(0, 0, 0));
  const picture = box('trak', tkhd(0, 640, 360));
  expect(mediaFacts(Buffer.concat([ftyp, box('moov', mvhd(0, 1000, 12_400), sound, picture), box('mdat', Buffer.alloc(64))]))).toEqual({
    duration: 12,
    width: 640,
    height: 360,
  });
  // Movie box last (not "fast start"), version 1 headers.
  const late = Buffer.concat([ftyp, box('mdat', Buffer.alloc(300)), box('moov', mvhd(1, 600, 600 * 95), box('trak', tkhd(1, 1920, 1080)))]);
  expect(mediaFacts(late)).toEqual({ duration: 95, width: 1920, height: 1080 });
  // Sound only (an M4A): a duration and no size.
  expect(mediaFacts(Buffer.concat([ftyp, box('moov', mvhd(0, 44_100, 44_100 * 3), sound)]))).toEqual({ duration: 3 });
});

test('a truncated or foreign file has no facts', () => {
  const whole = Buffer.concat([ftyp, box('moov', mvhd(0, 1000, 5000), box('trak', tkhd(0, 10, 10)))]);
  expect(mediaFacts(whole.subarray(0, whole.length - 20))).toEqual({});
  expect(mediaFacts(Buffer.from('just some text, not a movie'))).toEqual({});
  expect(mediaFacts(Buffer.alloc(0))).toEqual({});
  // A box whose size runs past the end.
  const broken = Buffer.from(ftyp);
  broken.writeUInt32BE(9999, 0);
  expect(mediaFacts(broken)).toEqual({});
});

test("an Ogg stream's duration is its last page's position, less Opus' pre-skip, at the stream's rate", () => {
  const opusHead = Buffer.alloc(19);
  opusHead.write('OpusHead', 0, 'latin1');
  opusHead.writeUInt16LE(312, 10);
  const opus = Buffer.concat([
    oggPage(0n, opusHead),
    oggPage(48_000n, Buffer.alloc(40)),
    oggPage(BigInt(48_000 * 7 + 312), Buffer.alloc(40)),
  ]);
  expect(mediaFacts(opus)).toEqual({ duration: 7 });
  const vorbisHead = Buffer.alloc(30);
  vorbisHead.write('\u0001vorbis', 0, 'latin1');
  vorbisHead.writeUInt32LE(44_100, 12);
  expect(mediaFacts(Buffer.concat([oggPage(0n, vorbisHead), oggPage(BigInt(44_100 * 61), Buffer.alloc(10))]))).toEqual({ duration: 61 });
  // Another codec in Ogg: nothing read.
  expect(mediaFacts(oggPage(0n, Buffer.from('\u007fFLAC....', 'latin1')))).toEqual({});
});
