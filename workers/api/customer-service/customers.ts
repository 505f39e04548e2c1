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
import { resource } from "../resource";

const tag = "Customer service";
const customer = resource(tag, "/customer-service/customer");

export const routes = [
  customer.list("Customers, newest first, paged and filtered (name, email, phone, memberLevel, status, groupId)", listCustomers, customerListQuery),
  customer.create("Create a customer (member level NORMAL, balance 0, status NORMAL); money in minor units", createCustomer, customerInput),

  // Fixed paths before `{id}`, which would otherwise take them.
  customer.get("/options", "Customers matching a keyword (name or e-mail), at most 20", customerOptions, optionsQuery),
  customer.get("/point-options", "Points matching a keyword (serial number or name), at most 50, for a customer's chargePointList", chargePointOptions, optionsQuery),
  customer.detail("A customer with its group, who pays, its cards and the points it may charge at", customerDetail),
  customer.update("Edit a customer; memberLevel, balance and status are not changed here", updateCustomer, customerInput),
  customer.put("/{id}/status", "NORMAL or ABNORMAL; every tag of an ABNORMAL customer answers Blocked", setCustomerStatus, customerStatusInput),
  customer.remove("Delete a customer without balance who leads no group; its cards become unbound", deleteCustomer),
];
