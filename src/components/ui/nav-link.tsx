import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';

/**
 * A link that marks itself `aria-current="page"` while the address is its page or a page under
 * it, as a navigation entry should for screen readers and for the active style.
 */
export function NavLink({
  to,
  className,
  children,
}: {
  to: string;
  className?: string;
  children: ReactNode;
}) {
  const [pathname] = useLocation();
  const current = pathname === to || pathname.startsWith(`${to}/`);
  return (
    <Link href={to} className={className} aria-current={current ? 'page' : undefined}>
      {children}
    </Link>
  );
}
