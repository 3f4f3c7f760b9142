'use client';
import { createContext, useContext, type ReactNode } from 'react';

export interface PortalInfo {
  environment: 'test' | 'live';
  csrfToken: string;
  user: { id: string; email: string };
  account: { id: string; name: string };
}

const PortalContext = createContext<PortalInfo | null>(null);

export function PortalProvider({ value, children }: { value: PortalInfo; children: ReactNode }) {
  return <PortalContext.Provider value={value}>{children}</PortalContext.Provider>;
}

/** The signed-in user, account, selected environment and CSRF token (client components under (portal)). */
export function usePortal(): PortalInfo {
  const value = useContext(PortalContext);
  if (!value) throw new Error('usePortal must be used inside the portal layout');
  return value;
}
