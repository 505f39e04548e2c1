import type { ReactNode } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TableBody, TableHeader, TableRow } from "~/components/ui/table";

/**
 * A short table of rows that belong to the record a page shows (a station's points, a group's
 * members, a point's latest sessions or certificates): all its rows at once, not paged, named by
 * `label`. With no rows it shows `empty`, the page's own words for that, where it gives them.
 */
export function RowsTable({ label, head, rows, empty }: { label: string; head: ReactNode; rows: ReactNode[]; empty?: ReactNode }) {
  if (rows.length === 0 && empty) return empty;
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>{head}</TableRow>
      </TableHeader>
      <TableBody>{rows}</TableBody>
    </Table>
  );
}

/**
 * A section of a record's page that is its `RowsTable`: a card titled after the section, the
 * table named by the same title and scrolling sideways inside the card on a narrow screen.
 */
export function RowsCard({ title, ...table }: { title: string; head: ReactNode; rows: ReactNode[]; empty?: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="overflow-x-auto">
        <RowsTable label={title} {...table} />
      </CardContent>
    </Card>
  );
}
