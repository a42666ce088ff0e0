import { Link } from 'react-router';
import { HOME_PATH } from '../../shared/paths';

/** Logo and title; the logo variant follows the menu theme (spec section 2). */
export function Logo({ theme, showTitle }: { theme: 'dark' | 'light'; showTitle: boolean }) {
  return (
    <Link to={HOME_PATH} className={`shell-logo shell-logo--${theme}`} data-testid="logo">
      <img src={theme === 'dark' ? '/logo.svg' : '/logo-light.svg'} alt="BLRMS" />
      {showTitle && <h1>BLRMS</h1>}
    </Link>
  );
}
