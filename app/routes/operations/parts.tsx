/** The options of a location select: a first empty choice where `empty` names it, then each location by name. */
export function StationOptions({ stations, empty, withLoad = false }: { stations: { id: number; name: string; powerLimit?: number | null }[]; empty?: string; withLoad?: boolean }) {
  return (
    <>
      {empty !== undefined && <option value="">{empty}</option>}
      {stations.map((s) => (
        <option key={s.id} value={s.id}>
          {s.name}
          {withLoad && s.powerLimit != null ? ` · ${s.powerLimit} kW` : ""}
        </option>
      ))}
    </>
  );
}
