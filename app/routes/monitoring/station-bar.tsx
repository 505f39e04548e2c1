import { MapPin } from "lucide-react";
import type { ReactNode } from "react";
import { useSearchParams } from "react-router";
import { NativeSelect } from "~/components/ui/native-select";
import { StationOptions } from "../operations/parts";

/**
 * The bar over a page that shows one location at a time (load monitoring, the remote-control
 * panel): which location, chosen among the operator's and kept in the URL's `stationId`, and
 * what the page tells of it beside the choice.
 */
export function StationBar({ id, label, stations, stationId, children }: { id: string; label: string; stations: { id: number; name: string }[]; stationId: number; children?: ReactNode }) {
  const [, setParams] = useSearchParams();
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border bg-card p-3">
      <MapPin className="size-4 text-muted-foreground" aria-hidden />
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <NativeSelect id={id} className="w-72 max-w-full" value={stationId} onChange={(e) => setParams({ stationId: e.target.value })}>
        <StationOptions stations={stations} />
      </NativeSelect>
      {children}
    </div>
  );
}
