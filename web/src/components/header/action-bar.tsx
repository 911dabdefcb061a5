import { X, type LucideIcon } from 'lucide-react';
import { Fragment } from 'react';
import './header.css';

/** One button of the top bar or the selection bar. */
export type HeaderAction = {
  id: string;
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  /** A small count on the icon (the download button shows how many items are selected). */
  badge?: number;
  /** For toggles (multiple selection). */
  isPressed?: boolean;
  tone?: 'danger';
  /** Starts a new group of buttons, set off by a thin divider. */
  startsGroup?: boolean;
};

function ActionButton({ action }: { action: HeaderAction }) {
  const Icon = action.icon;
  return (
    <button
      type="button"
      className={`icon-button header-action${action.tone === 'danger' ? ' header-action--danger' : ''}${action.isPressed ? ' is-pressed' : ''}`}
      aria-label={action.label}
      title={action.label}
      aria-pressed={action.isPressed}
      data-action={action.id}
      onClick={action.onClick}
    >
      <Icon aria-hidden="true" size={20} />
      {action.badge !== undefined && action.badge > 0 && (
        <span className="header-action__badge" aria-hidden="true">
          {action.badge > 999 ? '999+' : action.badge}
        </span>
      )}
    </button>
  );
}

/** A row of icon buttons with tooltips, as shown in the top bar. */
export function ActionBar({ actions, label }: { actions: HeaderAction[]; label: string }) {
  if (actions.length === 0) return null;
  return (
    <div className="action-bar" role="group" aria-label={label}>
      {actions.map((action, index) => (
        <Fragment key={action.id}>
          {action.startsGroup && index > 0 && <span className="action-bar__divider" aria-hidden="true" />}
          <ActionButton action={action} />
        </Fragment>
      ))}
    </div>
  );
}

type SelectionBarProps = {
  /** e.g. "3 selected" */
  summary: string;
  actions: HeaderAction[];
  clearLabel: string;
  onClear: () => void;
  label: string;
};

/** On narrow screens the selection's actions sit in a bar at the bottom, with the count. */
export function SelectionBar({ summary, actions, clearLabel, onClear, label }: SelectionBarProps) {
  return (
    <div className="selection-bar" role="region" aria-label={label}>
      <button type="button" className="icon-button" aria-label={clearLabel} title={clearLabel} onClick={onClear}>
        <X aria-hidden="true" size={20} />
      </button>
      <span className="selection-bar__summary" aria-live="polite">
        {summary}
      </span>
      <div className="selection-bar__actions">
        {actions.map((action) => (
          <ActionButton key={action.id} action={action} />
        ))}
      </div>
    </div>
  );
}
