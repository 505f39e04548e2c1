import { choicesQuery, vehicleInput, vehicleListQuery } from "../../../domain/schemas/driver-services";
import { customerChoices } from "../../services/driver-services/pickers";
import { createVehicle, deleteVehicle, listVehicles, updateVehicle, vehicleDetail } from "../../services/driver-services/vehicles";
import { resource } from "../resource";

const vehicle = resource("Customer service", "/customer-service/vehicle");

export const routes = [
  vehicle.list("Vehicles, newest first, paged and filtered (name, plate, customerId, customer)", listVehicles, vehicleListQuery),
  vehicle.create("Create a vehicle of a customer; `default: true` takes the default from the customer's other vehicles", createVehicle, vehicleInput),

  // Fixed paths before `{id}`, which would otherwise take them.
  vehicle.get("/customers", "Customers matching a keyword (name or e-mail), at most 50, for the owner pickers of vehicles, offline lists and reservations", customerChoices, choicesQuery),
  vehicle.detail("A vehicle", vehicleDetail),
  vehicle.update("Update a vehicle", updateVehicle, vehicleInput),
  vehicle.remove("Delete a vehicle", deleteVehicle),
];
