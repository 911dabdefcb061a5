/**
 * Upload speed and remaining time. Speed is sampled at most every 100 ms, averaged over the last
 * five samples, and that average is blended 20/80 into the previous estimate so the figure on
 * screen does not jump with every chunk boundary.
 */
const SampleIntervalMs = 100;
const SampleWindow = 5;
const NewWeight = 0.2;

export class SpeedMeter {
  private samples: number[] = [];
  private lastTime: number | null = null;
  private lastBytes = 0;
  private smoothed = 0;

  /** Bytes per second as shown. */
  get speed(): number {
    return this.smoothed;
  }

  /** Records the total bytes sent so far at `now` (ms); returns the current estimate. */
  sample(sentBytes: number, now: number): number {
    if (this.lastTime === null) {
      this.lastTime = now;
      this.lastBytes = sentBytes;
      return this.smoothed;
    }
    const elapsed = now - this.lastTime;
    if (elapsed < SampleIntervalMs) return this.smoothed;
    const rate = (Math.max(0, sentBytes - this.lastBytes) / elapsed) * 1000;
    this.lastTime = now;
    this.lastBytes = sentBytes;
    this.samples.push(rate);
    if (this.samples.length > SampleWindow) this.samples.shift();
    const average = this.samples.reduce((sum, value) => sum + value, 0) / this.samples.length;
    this.smoothed = this.samples.length === 1 && this.smoothed === 0 ? average : NewWeight * average + (1 - NewWeight) * this.smoothed;
    return this.smoothed;
  }

  reset(): void {
    this.samples = [];
    this.lastTime = null;
    this.lastBytes = 0;
    this.smoothed = 0;
  }
}

/** Seconds left at the given speed, or null when it cannot be told (no speed yet). */
export function remainingSeconds(remainingBytes: number, bytesPerSecond: number): number | null {
  if (!(bytesPerSecond > 0) || !Number.isFinite(bytesPerSecond)) return null;
  return Math.max(0, Math.ceil(remainingBytes / bytesPerSecond));
}

/** hh:mm:ss, or dashes when unknown. Hours keep growing past 99 rather than wrapping. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--:--:--';
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  return [hours, minutes, rest].map((part) => String(part).padStart(2, '0')).join(':');
}

/** Whole percent sent, 100 only once everything is sent. */
export function percentOf(sent: number, total: number): number {
  if (total <= 0) return 0;
  const percent = Math.floor((sent / total) * 100);
  return Math.min(100, Math.max(0, percent));
}
