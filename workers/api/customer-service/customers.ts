import { customerInput, customerListQuery, customerStatusInput, optionsQuery } from "../../../domain/schemas/drivers";
import * as customers from "../../services/drivers/customers";
import { resource } from "../resource";

const tag = "Customer service";
const customer = resource(tag, "/customer-service/customer");

export const routes = [
  customer.list("Customers, newest first, paged and filtered (name, email, phone, memberLevel, status, groupId)", customers.listCustomers, customerListQuery),
  customer.create("Create a customer (member level NORMAL, balance 0, status NORMAL); money in minor units", customers.createCustomer, customerInput),

  // Fixed paths before `{id}`, which would otherwise take them.
  customer.get("/options", "Customers matching a keyword (name or e-mail), at most 20", customers.customerOptions, optionsQuery),
  customer.get("/point-options", "Points matching a keyword (serial number or name), at most 50, for a customer's chargePointList", customers.chargePointOptions, optionsQuery),
  customer.detail("A customer with its group, who pays, its cards and the points it may charge at", customers.customerDetail),
  customer.update("Edit a customer; memberLevel, balance and status are not changed here", customers.updateCustomer, customerInput),
  customer.put("/{id}/status", "NORMAL or ABNORMAL; every tag of an ABNORMAL customer answers Blocked", customers.setCustomerStatus, customerStatusInput),
  customer.remove("Delete a customer without balance who leads no group; its cards become unbound", customers.deleteCustomer),
];
