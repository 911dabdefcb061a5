import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { focusInitial } from './use-focus-trap';

type DialogFrameProps = {
  title: string;
  children: ReactNode;
  /** Footer buttons; a submit button submits the form around the body. */
  actions: ReactNode;
  onSubmit?: () => void;
  /** Marks the dialog as an alert (destructive confirmations). */
  isAlert?: boolean;
};

/** The visible dialog box: a labelled modal with a title, a body and a row of actions. */
export function DialogFrame({ title, children, actions, onSubmit, isAlert }: DialogFrameProps) {
  const titleId = useId();
  const frameRef = useRef<HTMLDivElement>(null);
  // Dialog bodies arrive lazily, after the layer took focus: move it into the form once shown.
  useEffect(() => {
    if (frameRef.current) focusInitial(frameRef.current);
  }, []);
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit?.();
  };
  return (
    <div ref={frameRef} className="dialog" role={isAlert ? 'alertdialog' : 'dialog'} aria-modal="true" aria-labelledby={titleId}>
      <form onSubmit={handleSubmit} noValidate>
        <h2 id={titleId} className="dialog__title">
          {title}
        </h2>
        <div className="dialog__body">{children}</div>
        <div className="dialog__actions">{actions}</div>
      </form>
    </div>
  );
}
