import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { RowsTable } from "~/components/rows-table";

/**
 * A few of the newest rows of a list on another record's page (a customer's sessions, a vehicle
 * owner's bills): the title, what leads to the whole list (`action`, when the user may open it),
 * and a small table, or its empty state when there are no rows.
 */
export function RecentRowsCard({ title, action, empty, head, rows }: { title: string; action?: ReactNode; empty: string; head: ReactNode; rows: ReactNode[] }) {
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
        <CardTitle>{title}</CardTitle>
        {action}
      </CardHeader>
      <CardContent>
        {rows.length === 0 ? (
          <p className="py-4 text-center text-sm text-muted-foreground">{empty}</p>
        ) : (
          <div className="overflow-x-auto">
            <RowsTable label={title} head={head} rows={rows} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
