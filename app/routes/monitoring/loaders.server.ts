import { data } from "react-router";
import { AppError } from "../../../domain/errors";

/**
 * A detail page's record, or the not-found page: another tenant's id, one outside a
 * sub-operator's devices, or an id that is not a number all read as "no such page" (404).
 */
export async function foundOr404<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    const zod = error instanceof Error && error.name === "ZodError";
    if (zod || (error instanceof AppError && (error.status === 404 || error.status === 400))) throw data(null, { status: 404 });
    throw error;
  }
}
