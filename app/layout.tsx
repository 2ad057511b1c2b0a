import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { MainNav } from "@/components/layout/nav";
import { Providers } from "./providers";
import { currentViewer } from "./guard";
import { permissionsOf } from "@/lib/auth/roles";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "FACT-OR-FAIR workbench", template: "%s · FACT-OR-FAIR" },
  description: "Audit LLMs and text-to-image models for factuality and fairness (Huang et al., 2025).",
  icons: { icon: "/favicon.svg" },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const viewer = await currentViewer();
  const user = viewer ? { email: viewer.email, role: viewer.role, permissions: [...permissionsOf(viewer.role)] } : null;
  return (
    <html lang="en">
      <body className="min-h-screen">
        <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
          Skip to content
        </a>
        <header className="border-b border-slate-200 bg-white print:hidden">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
            <Link href="/" className="text-base font-semibold tracking-tight text-slate-900">
              FACT-OR-FAIR <span className="font-normal text-slate-500">workbench</span>
            </Link>
            <MainNav user={user} />
          </div>
        </header>
        <Providers permissions={user?.permissions ?? []}>
          <main id="main" className="mx-auto max-w-7xl px-4 py-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
