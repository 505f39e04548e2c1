import { choicesQuery, vehicleInput, vehicleListQuery } from "../../../domain/schemas/driver-services";
import { customerChoices } from "../../services/driver-services/pickers";
import { createVehicle, deleteVehicle, listVehicles, updateVehicle, vehicleDetail } from "../../services/driver-services/vehicles";
import { idParam, route } from "../app";

const tag = "Customer service";

export const routes = [
  route(
    { method: "get", path: "/customer-service/vehicle", summary: "Vehicles, newest first, paged and filtered (name, plate, customerId, customer)", tag, verb: listVehicles, query: vehicleListQuery },
    (ctx, { query }) => listVehicles(ctx, query),
  ),

  route(
    { method: "post", path: "/customer-service/vehicle", summary: "Create a vehicle of a customer; `default: true` takes the default from the customer's other vehicles", tag, verb: createVehicle, body: vehicleInput },
    (ctx, { body }) => createVehicle(ctx, body),
  ),

  // Fixed paths before `{id}`, which would otherwise take them.
  route(
    {
      method: "get",
      path: "/customer-service/vehicle/customers",
      summary: "Customers matching a keyword (name or e-mail), at most 50, for the owner pickers of vehicles, offline lists and reservations",
      tag,
      verb: customerChoices,
      query: choicesQuery,
    },
    (ctx, { query }) => customerChoices(ctx, query),
  ),

  route({ method: "get", path: "/customer-service/vehicle/{id}", summary: "A vehicle", tag, verb: vehicleDetail, params: idParam }, (ctx, { params }) =>
    vehicleDetail(ctx, params.id),
  ),

  route(
    { method: "put", path: "/customer-service/vehicle/{id}", summary: "Update a vehicle", tag, verb: updateVehicle, params: idParam, body: vehicleInput },
    (ctx, { params, body }) => updateVehicle(ctx, params.id, body),
  ),

  route({ method: "delete", path: "/customer-service/vehicle/{id}", summary: "Delete a vehicle", tag, verb: deleteVehicle, params: idParam }, (ctx, { params }) =>
    deleteVehicle(ctx, params.id),
  ),
];
