import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppSettings } from '../../stores/app-settings-store';
import { stripAnsi } from './ansi';
import { emptyHistory, remember, step } from './shell-history';
import { useShellResize } from './use-shell-resize';
import './shell.css';

type OutputEntry = { id: number; folder: string; command: string; text: string; isError?: boolean };

/** A started command; stopping it ends the program. */
export type RunningCommand = { stop: () => void };

/**
 * Starts `line` in `folder` and reports each output line, then the end: the close code and
 * reason, and whether a connection was ever made.
 */
export type CommandRunner = (
  folder: string,
  line: string,
  handlers: { onLine: (text: string) => void; onEnd: (end: { code: number; reason: string; wasConnected: boolean }) => void },
) => RunningCommand;

type ShellPanelProps = {
  runCommand: CommandRunner;
  /** The folder commands run in (asked when a command starts: the screen may have moved on). */
  folderOf: () => string;
  onClose: () => void;
};

let nextEntryId = 1;

/**
 * The shell panel (spec section 2): a command line with history on the arrow keys, `clear` and
 * `exit`, output appended as it arrives with colour codes stripped, and a divider that resizes
 * the panel. The line is disabled while a command runs and comes back when the server closes
 * the connection.
 */
export function ShellPanel({ runCommand, folderOf, onClose }: ShellPanelProps) {
  const { t } = useTranslation();
  const inputId = useId();
  const panelRef = useRef<HTMLElement>(null);
  const dividerRef = useRef<HTMLDivElement>(null);
  const outputRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [entries, setEntries] = useState<OutputEntry[]>([]);
  const [text, setText] = useState('');
  const [history, setHistory] = useState(emptyHistory);
  const [isRunning, setRunning] = useState(false);
  const runningRef = useRef<RunningCommand | null>(null);
  const resize = useShellResize(panelRef, dividerRef);
  // Commands run only in the server's sandbox: without it the panel says why instead of a line.
  const runner = useAppSettings((state) => state.settings.CommandRunner);
  const unavailable = runner === 'sandbox-missing' ? t('shell.sandboxMissing') : runner === 'sandbox-unusable' ? t('shell.sandboxUnusable') : undefined;

  // Closing the panel ends a running command (the server stops it when the socket closes).
  useEffect(
    () => () => {
      runningRef.current?.stop();
      runningRef.current = null;
    },
    [],
  );

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  // The newest output stays in view.
  useLayoutEffect(() => {
    const output = outputRef.current;
    if (output) output.scrollTop = output.scrollHeight;
  }, [entries]);

  const start = (command: string) => {
    const folder = folderOf();
    const id = nextEntryId++;
    setEntries((current) => [...current, { id, folder, command, text: '' }]);
    setRunning(true);
    // Lines can arrive faster than the screen redraws: gather them and append once per frame.
    let buffered: string[] = [];
    let frame = 0;
    const flush = () => {
      frame = 0;
      if (buffered.length === 0) return;
      const added = buffered.join('');
      buffered = [];
      setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, text: entry.text + added } : entry)));
    };
    const running = runCommand(folder, command, {
      onLine: (line) => {
        buffered.push(stripAnsi(line) + '\n');
        if (frame === 0) frame = requestAnimationFrame(flush);
      },
      onEnd: (end) => {
        if (frame !== 0) cancelAnimationFrame(frame);
        flush();
        if (runningRef.current !== running) return;
        runningRef.current = null;
        if (!end.wasConnected) {
          setEntries((current) => current.map((entry) => (entry.id === id ? { ...entry, text: t('shell.connectionFailed'), isError: true } : entry)));
        }
        setRunning(false);
      },
    });
    runningRef.current = running;
  };

  // Input comes back when a command ends; so does the focus, unless the user went elsewhere.
  useEffect(() => {
    if (isRunning) return;
    const active = document.activeElement;
    if (active === null || active === document.body || panelRef.current?.contains(active)) inputRef.current?.focus();
  }, [isRunning]);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const command = text.trim();
    if (command === '' || isRunning) return;
    setText('');
    if (command === 'clear') {
      setEntries([]);
      return;
    }
    if (command === 'exit') {
      onClose();
      return;
    }
    setHistory((current) => remember(current, command));
    start(command);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    event.preventDefault();
    const moved = step(history, event.key === 'ArrowUp' ? 'up' : 'down');
    if (!moved) return;
    setHistory(moved.history);
    setText(moved.text);
  };

  return (
    <>
      {/* Keeps the end of the page reachable above the panel. */}
      <div className="shell-spacer" style={{ height: `${resize.height}em` }} aria-hidden="true" />
      <section
        ref={panelRef}
        className={`shell${resize.isDragging ? ' shell--dragging' : ''}`}
        style={{ height: `${resize.height}em` }}
        aria-label={t('shell.title')}
        // Shortcuts of the screen behind (Ctrl+A, Delete …) do not apply to the panel's text.
        onKeyDown={(event) => event.key !== 'Tab' && event.stopPropagation()}
      >
        <div
          ref={dividerRef}
          className="shell__divider"
          role="separator"
          aria-orientation="horizontal"
          aria-label={t('shell.resize')}
          aria-valuenow={resize.height}
          aria-valuemin={resize.minimum}
          aria-valuemax={resize.maximum}
          tabIndex={0}
          {...resize.dividerProps}
        />
        <div ref={outputRef} className="shell__output" role="log" aria-label={t('shell.output')} tabIndex={0}>
          {entries.map((entry) => (
            <div key={entry.id} className="shell__entry">
              <div className="shell__prompt-line">
                <span className="shell__folder">{entry.folder}</span> <span aria-hidden="true">$</span> {entry.command}
              </div>
              {entry.text && <pre className={`shell__result${entry.isError ? ' shell__result--error' : ''}`}>{entry.text}</pre>}
            </div>
          ))}
        </div>
        {unavailable !== undefined ? (
          <p className="shell__unavailable" role="status">
            {unavailable}
          </p>
        ) : (
          <form className="shell__line" onSubmit={handleSubmit}>
            <span className="shell__folder">{folderOf()}</span>
            <span aria-hidden="true">$</span>
            <label htmlFor={inputId} className="visually-hidden">
              {t('shell.command')}
            </label>
            <input
              ref={inputRef}
              id={inputId}
              className="shell__input"
              type="text"
              autoComplete="off"
              autoCapitalize="off"
              autoCorrect="off"
              spellCheck={false}
              enterKeyHint="send"
              value={text}
              disabled={isRunning}
              onChange={(event) => setText(event.target.value)}
              onKeyDown={handleKeyDown}
            />
          </form>
        )}
      </section>
    </>
  );
}
