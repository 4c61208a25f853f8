import { type QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { BrowserRouter, Route, Routes } from "react-router";
import { createQueryClient } from "../lib/queries";
import { ToastProvider } from "../ui/Toasts";
import { AppSkeleton, Workspace } from "./Workspace";

// Visitors of a shared dashboard load only what that page needs on top of the widgets.
const PublicDashboardPage = lazy(() => import("./PublicDashboard"));
// Signed-in people, who open the app most, never need the sign-in form's code.
const AuthPage = lazy(() => import("./AuthPage").then((m) => ({ default: m.AuthPage })));
const AUTH_MODES = ["signin", "signup"] as const;

/** `client` is the one main.tsx may have started the session query in before the first render. */
export function App({ client: started }: { client?: QueryClient }) {
  const [client] = useState(() => started ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>
        <BrowserRouter>
          <Routes>
            {AUTH_MODES.map((mode) => (
              <Route
                key={mode}
                path={`/${mode}`}
                element={
                  <Suspense fallback={null}>
                    <AuthPage mode={mode} />
                  </Suspense>
                }
              />
            ))}
            <Route
              path="/p/:dashboardId"
              element={
                <Suspense fallback={<AppSkeleton />}>
                  <PublicDashboardPage />
                </Suspense>
              }
            />
            <Route path="/*" element={<Workspace />} />
          </Routes>
        </BrowserRouter>
      </ToastProvider>
    </QueryClientProvider>
  );
}
