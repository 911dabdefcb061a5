import { describe, expect, it } from 'vitest';
import { SpeedMeter, formatDuration, percentOf, remainingSeconds } from './speed';

describe('SpeedMeter', () => {
  it('ignores samples closer than 100 ms', () => {
    const meter = new SpeedMeter();
    meter.sample(0, 0);
    expect(meter.sample(1000, 50)).toBe(0);
    expect(meter.sample(1000, 100)).toBe(10_000);
  });

  it('averages the last five samples and blends them 20/80 into the estimate', () => {
    const meter = new SpeedMeter();
    meter.sample(0, 0);
    // 1000 B per 100 ms = 10 kB/s: the first sample becomes the estimate.
    expect(meter.sample(1000, 100)).toBeCloseTo(10_000);
    // Then 3000 B in 100 ms: average of [10k, 30k] = 20k; 0.2·20k + 0.8·10k = 12k.
    expect(meter.sample(4000, 200)).toBeCloseTo(12_000);
    // Five more samples at 30 kB/s push the first one out of the window.
    let bytes = 4000;
    let time = 200;
    let last = 0;
    const expected = [12_000];
    const windowed: number[] = [10_000, 30_000];
    for (let index = 0; index < 5; index += 1) {
      bytes += 3000;
      time += 100;
      last = meter.sample(bytes, time);
      windowed.push(30_000);
      const window = windowed.slice(-5);
      const average = window.reduce((sum, value) => sum + value, 0) / window.length;
      expected.push(0.2 * average + 0.8 * expected[expected.length - 1]!);
    }
    expect(last).toBeCloseTo(expected[expected.length - 1]!);
  });

  it('never reports a negative speed', () => {
    const meter = new SpeedMeter();
    meter.sample(5000, 0);
    expect(meter.sample(1000, 200)).toBe(0);
  });
});

describe('remaining time', () => {
  it('divides what is left by the speed, or is unknown without speed', () => {
    expect(remainingSeconds(1000, 100)).toBe(10);
    expect(remainingSeconds(1001, 100)).toBe(11);
    expect(remainingSeconds(1000, 0)).toBeNull();
    expect(remainingSeconds(1000, Number.NaN)).toBeNull();
  });

  it('formats as hh:mm:ss or dashes', () => {
    expect(formatDuration(null)).toBe('--:--:--');
    expect(formatDuration(0)).toBe('00:00:00');
    expect(formatDuration(59)).toBe('00:00:59');
    expect(formatDuration(3661)).toBe('01:01:01');
    expect(formatDuration(100 * 3600)).toBe('100:00:00');
  });

  it('rounds percent down and bounds it', () => {
    expect(percentOf(0, 0)).toBe(0);
    expect(percentOf(999, 1000)).toBe(99);
    expect(percentOf(1000, 1000)).toBe(100);
    expect(percentOf(2000, 1000)).toBe(100);
  });
});
