import { describe, expect, it } from 'vitest';
import { emptyHistory, remember, step } from './shell-history';

describe('shell history', () => {
  it('walks back through the commands and forward to a fresh line', () => {
    let history = remember(remember(emptyHistory, 'ls'), 'echo hi');
    const back = step(history, 'up')!;
    expect(back.text).toBe('echo hi');
    history = back.history;
    const further = step(history, 'up')!;
    expect(further.text).toBe('ls');
    expect(step(further.history, 'up')).toBeUndefined();
    const forward = step(further.history, 'down')!;
    expect(forward.text).toBe('echo hi');
    const fresh = step(forward.history, 'down')!;
    expect(fresh.text).toBe('');
    expect(step(fresh.history, 'down')).toBeUndefined();
  });

  it('keeps a repeated command once and starts from the newest after running', () => {
    let history = remember(emptyHistory, 'ls');
    history = remember(history, 'ls');
    expect(history.entries).toEqual(['ls']);
    history = step(history, 'up')!.history;
    history = remember(history, 'echo');
    expect(history.position).toBe(2);
    expect(step(history, 'up')!.text).toBe('echo');
  });

  it('has nothing to show when empty', () => {
    expect(step(emptyHistory, 'up')).toBeUndefined();
    expect(step(emptyHistory, 'down')).toBeUndefined();
  });
});
