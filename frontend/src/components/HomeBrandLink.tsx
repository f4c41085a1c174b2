import { Link } from 'react-router-dom';
import { paths } from '../config/paths';
import { BrandMark } from './ui/BrandMark';

/**
 * The brand mark as a link to the landing page, with the accessible name every page uses for it.
 * `className` styles the link (padding, visibility); `tone` and `nameClassName` go to {@link BrandMark}.
 */
export function HomeBrandLink({
  className,
  tone,
  nameClassName,
}: {
  className: string;
  tone?: 'dark' | 'light';
  nameClassName?: string;
}) {
  return (
    <Link to={paths.home.href} className={className} aria-label="Headshot Studio home">
      <BrandMark tone={tone} nameClassName={nameClassName} />
    </Link>
  );
}
