// The frame-rate limit of one session (REALTIME_MAX_FRAMES_PER_SECOND).

/** A flood of small frames, or of messages carrying only heart-beats, counts alike: frames or messages per second. */
export class FrameRate {
  private windowStart = Date.now();
  private count = 0;

  /** Counts a message of `frames` frames; the count of the current second. */
  add(frames: number): number {
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.count = 0;
    }
    this.count += Math.max(1, frames);
    return this.count;
  }
}
