import { geocodeQuery, stationInput, stationListQuery, stationStatusInput } from "../../../domain/schemas/stations";
import { geocodeAddress } from "../../services/stations/geocode";
import * as stations from "../../services/stations/stations";
import { resource } from "../resource";

const station = resource("Station service", "/station-service/station");

export const routes = [
  station.list("Stations, highest rank first, paged and filtered (name, address, status, parkingFee)", stations.listStations, stationListQuery),
  station.create("Create a station (disabled until it has a point); without lat/lng the address is geocoded", stations.createStation, stationInput),

  // Fixed paths before `{id}`, which would otherwise take them.
  station.get("/connector-quota", "Authorised AC/DC connectors of the operator with used, remaining and enabled counts", stations.stationConnectorQuota),
  station.get("/geocode", "Coordinates of an address through the operator's map provider (parameter settings › map)", geocodeAddress, geocodeQuery),
  station.detail("A station with its point and connector counts", stations.stationDetail),
  station.update("Update a station; while enabled its address, coordinates, time zone and power limit are locked", stations.updateStation, stationInput),
  station.remove("Delete a disabled station without points", stations.deleteStation),
  station.put("/{id}/valid", "Enable (needs a point) or disable (disables its points; chargers get ChangeAvailability Inoperative)", stations.setStationStatus, stationStatusInput),
];
