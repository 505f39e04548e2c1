import { call } from "./http";

let counter = 0;
export const uniqueTag = (prefix = "C") => `${prefix}${Date.now().toString(36).slice(-6)}${(++counter).toString(36)}`.toUpperCase();

/** A customer's body as the customer form sends it; every required field filled. */
export const customerBody = (overrides: Record<string, unknown> = {}) => ({
  firstName: "Ewa",
  lastName: `Test${++counter}`,
  gender: "FEMALE",
  email: `ewa.${Date.now().toString(36)}.${++counter}@example.com`,
  phone: "+48 600 000 000",
  country: "PL",
  city: "Warszawa",
  zipCode: "00-001",
  evModel: "Kia EV6",
  ...overrides,
});

async function created<T>(what: string, res: { status: number; body: { data: unknown } }) {
  if (res.status !== 200) throw new Error(`${what}: ${JSON.stringify(res.body)}`);
  return res.body.data as T;
}

export interface CustomerData {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  status: string;
  groupId: number | null;
  payWay: string;
  chargeAllPoint: boolean;
  chargePointList: number[];
  memberLevel: string;
  balance: number;
}

export interface CardData {
  id: number;
  idTag: string;
  status: string;
  bindStatus: string;
  customerId: number | null;
  expiryDate: string | null;
  replacesCardId: number | null;
}

export const makeCustomer = async (token: string, overrides: Record<string, unknown> = {}) =>
  created<CustomerData>("makeCustomer", await call("POST", "/customer-service/customer", { token, body: customerBody(overrides) }));

export const makeCard = async (token: string, overrides: Record<string, unknown> = {}) =>
  created<CardData>("makeCard", await call("POST", "/customer-service/rf-card", { token, body: { idTag: uniqueTag(), deliveryType: "TAKE", ...overrides } }));

export const makeGroup = async (token: string, leaderId: number, memberIds: number[] = [leaderId], overrides: Record<string, unknown> = {}) =>
  created<{ id: number; code: string; memberIds: number[] }>(
    "makeGroup",
    await call("POST", "/customer-service/group", { token, body: { name: "Fleet", code: uniqueTag("G"), leaderId, memberIds, ...overrides } }),
  );
