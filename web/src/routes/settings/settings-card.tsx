import { useId, type FormEvent, type ReactNode } from 'react';

type SettingsCardProps = {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  /** Buttons at the bottom of the card; a submit button submits the card's form. */
  actions?: ReactNode;
  /** Makes the card a form; native validation (required, min) runs before this is called. */
  onSubmit?: () => void;
  className?: string;
};

/** A titled card of settings, usually a form with its own save button. */
export function SettingsCard({ title, description, children, actions, onSubmit, className }: SettingsCardProps) {
  const titleId = useId();
  const body = (
    <>
      <div className="settings-card__header">
        <h2 id={titleId} className="settings-card__title">
          {title}
        </h2>
        {description && <p className="settings-card__description">{description}</p>}
      </div>
      <div className="settings-card__body">{children}</div>
      {actions && <div className="settings-card__actions">{actions}</div>}
    </>
  );
  const classes = `card settings-card${className ? ` ${className}` : ''}`;
  if (!onSubmit) {
    return (
      <section className={classes} aria-labelledby={titleId}>
        {body}
      </section>
    );
  }
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className={classes} aria-labelledby={titleId} onSubmit={handleSubmit}>
      {body}
    </form>
  );
}
