import { useEffect, useRef, useState } from 'react';
import { chunkSizeOrFallback, formatChunkSize } from '../../../lib/chunk-size';

/** How long typing must pause before the text is read as a size. */
export const ChunkSizeInputDelay = 1500;

type ChunkSizeInputProps = {
  id: string;
  /** Bytes. */
  value: number;
  onChange: (bytes: number) => void;
  describedBy?: string;
};

/**
 * A size typed with an optional unit (`10MB`, `1.5 g`). 1.5 s after typing stops, or when the
 * field is left, the text is read (anything unreadable becomes 1 MB) and shown again in the
 * largest fitting unit.
 */
export function ChunkSizeInput({ id, value, onChange, describedBy }: ChunkSizeInputProps) {
  const [text, setText] = useState(() => formatChunkSize(value));
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef({ text, onChange });
  latest.current = { text, onChange };

  const apply = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const bytes = chunkSizeOrFallback(latest.current.text);
    setText(formatChunkSize(bytes));
    latest.current.onChange(bytes);
  };

  useEffect(() => () => clearTimeout(timer.current), []);

  return (
    <input
      id={id}
      className="input"
      inputMode="decimal"
      spellCheck={false}
      autoComplete="off"
      aria-describedby={describedBy}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        latest.current.text = event.target.value;
        clearTimeout(timer.current);
        timer.current = setTimeout(apply, ChunkSizeInputDelay);
      }}
      onKeyDown={(event) => {
        // Enter submits the form: read the size first so the save sends it.
        if (event.key === 'Enter' && timer.current !== undefined) apply();
      }}
      onBlur={() => {
        // Leaving the field (to press save, say) must not lose what was typed.
        if (timer.current !== undefined) apply();
      }}
    />
  );
}
