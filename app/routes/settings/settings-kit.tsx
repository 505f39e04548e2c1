import type { ReactNode } from "react";
import { useFetcher } from "react-router";
import { useActionOutcome, type ActionResult } from "~/components/page-actions";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";

/**
 * Pieces the settings screens share (docs/rules/settings.md "The console screen"): a form posts
 * `{ intent, values }` to its screen's action, and groups its fields in titled cards.
 */
export type IntentResult = ActionResult<{ intent: string; data: unknown }>;

/** Submits `{ intent, values }` to the screen's action; reports the outcome once. */
export function useIntent(onDone: (data: unknown) => void, onFieldError?: (name: string, message: string) => void) {
  const fetcher = useFetcher<IntentResult>();
  useActionOutcome<{ intent: string; data: unknown }>(fetcher, (result) => onDone(result.data), onFieldError);
  const submit = (intent: string, values: unknown) => fetcher.submit(JSON.stringify({ intent, values }), { method: "post", encType: "application/json" });
  return { fetcher, submit, busy: fetcher.state !== "idle" };
}

export function Section({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-3">{children}</CardContent>
    </Card>
  );
}
