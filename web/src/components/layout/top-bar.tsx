import { Menu } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from '../../lib/router';
import './top-bar.css';

type TopBarProps = {
  logoUrl: string;
  title: string;
  menuLabel: string;
  isMenuOpen: boolean;
  onToggleMenu: () => void;
  /** Receives the element screens portal their actions into. */
  actionsRef: (element: HTMLDivElement | null) => void;
  /** Buttons of app-wide features after the screen's actions (search, shell toggle). */
  tools?: ReactNode;
};

/** The header: a menu button on narrow screens, the logo and name, then the screen's actions. */
export function TopBar({ logoUrl, title, menuLabel, isMenuOpen, onToggleMenu, actionsRef, tools }: TopBarProps) {
  return (
    <header className="top-bar">
      <button
        type="button"
        className="icon-button top-bar__menu"
        aria-label={menuLabel}
        aria-expanded={isMenuOpen}
        aria-controls="sidebar"
        onClick={onToggleMenu}
      >
        <Menu aria-hidden="true" size={22} />
      </button>
      <Link to="/files/" className="top-bar__brand" aria-label={title}>
        <img src={logoUrl} alt="" width={28} height={28} />
        <span>{title}</span>
      </Link>
      <div className="top-bar__actions" ref={actionsRef} />
      {tools}
    </header>
  );
}
