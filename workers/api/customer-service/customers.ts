import { customerInput, customerListQuery, customerStatusInput, optionsQuery } from "../../../domain/schemas/drivers";
import {
  chargePointOptions,
  createCustomer,
  customerDetail,
  customerOptions,
  deleteCustomer,
  listCustomers,
  setCustomerStatus,
  updateCustomer,
} from "../../services/drivers/customers";
import { idParam, route } from "../app";

const tag = "Customer service";

export const routes = [
  route(
    {
      method: "get",
      path: "/customer-service/customer",
      summary: "Customers, newest first, paged and filtered (name, email, phone, memberLevel, status, groupId)",
      tag,
      verb: listCustomers,
      query: customerListQuery,
    },
    (ctx, { query }) => listCustomers(ctx, query),
  ),

  route(
    {
      method: "post",
      path: "/customer-service/customer",
      summary: "Create a customer (member level NORMAL, balance 0, status NORMAL); money in minor units",
      tag,
      verb: createCustomer,
      body: customerInput,
    },
    (ctx, { body }) => createCustomer(ctx, body),
  ),

  // Fixed paths before `{id}`, which would otherwise take them.
  route(
    { method: "get", path: "/customer-service/customer/options", summary: "Customers matching a keyword (name or e-mail), at most 20", tag, verb: customerOptions, query: optionsQuery },
    (ctx, { query }) => customerOptions(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/customer-service/customer/point-options",
      summary: "Points matching a keyword (serial number or name), at most 50, for a customer's chargePointList",
      tag,
      verb: chargePointOptions,
      query: optionsQuery,
    },
    (ctx, { query }) => chargePointOptions(ctx, query),
  ),

  route(
    {
      method: "get",
      path: "/customer-service/customer/{id}",
      summary: "A customer with its group, who pays, its cards and the points it may charge at",
      tag,
      verb: customerDetail,
      params: idParam,
    },
    (ctx, { params }) => customerDetail(ctx, params.id),
  ),

  route(
    {
      method: "put",
      path: "/customer-service/customer/{id}",
      summary: "Edit a customer; memberLevel, balance and status are not changed here",
      tag,
      verb: updateCustomer,
      params: idParam,
      body: customerInput,
    },
    (ctx, { params, body }) => updateCustomer(ctx, params.id, body),
  ),

  route(
    {
      method: "put",
      path: "/customer-service/customer/{id}/status",
      summary: "NORMAL or ABNORMAL; every tag of an ABNORMAL customer answers Blocked",
      tag,
      verb: setCustomerStatus,
      params: idParam,
      body: customerStatusInput,
    },
    (ctx, { params, body }) => setCustomerStatus(ctx, params.id, body),
  ),

  route(
    {
      method: "delete",
      path: "/customer-service/customer/{id}",
      summary: "Delete a customer without balance who leads no group; its cards become unbound",
      tag,
      verb: deleteCustomer,
      params: idParam,
    },
    (ctx, { params }) => deleteCustomer(ctx, params.id),
  ),
];
