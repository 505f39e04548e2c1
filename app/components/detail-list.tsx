import type { ReactNode } from "react";
import { Card, CardContent } from "~/components/ui/card";

/** Label and value pairs of a detail page, in a responsive grid. */
export function DetailList({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="grid gap-x-8 gap-y-4 sm:grid-cols-2 lg:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label} className="flex flex-col gap-1">
          <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
          <dd className="text-sm">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A detail page's facts about its record: the label and value pairs on a card of their own. */
export function FactsCard({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <Card>
      <CardContent className="pt-6">
        <DetailList items={items} />
      </CardContent>
    </Card>
  );
}
