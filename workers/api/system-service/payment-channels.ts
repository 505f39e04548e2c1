import { z } from "zod";
import { channelEnableInput } from "../../../domain/schemas/payments";
import { createChannel, deleteChannel, enableChannel, getChannel, listChannels, updateChannel } from "../../services/payments/channels";
import { idParam, route } from "../app";

/**
 * Payment channels (docs/rules/payments.md "Channels"). Create and update bodies are parsed by the
 * verb, which says "choose the type first" before anything else about a body without one.
 */
const tag = "System service: payment channels";
const channelBody = z.record(z.string(), z.unknown()).meta({ description: "A payment channel (see paymentChannelInput): type first, credentials write-only" });

export const routes = [
  route({ method: "get", path: "/system-service/payment-channel", summary: "The operator's payment channels, credentials masked", tag, verb: listChannels }, (ctx) => listChannels(ctx)),
  route(
    { method: "post", path: "/system-service/payment-channel", summary: "Add a payment channel (disabled); one per type: 409 when its type exists", tag, verb: createChannel, body: channelBody },
    (ctx, { body }) => createChannel(ctx, body),
  ),
  route({ method: "get", path: "/system-service/payment-channel/{id}", summary: "One payment channel, credentials masked", tag, verb: getChannel, params: idParam }, (ctx, { params }) =>
    getChannel(ctx, params.id),
  ),
  route(
    { method: "put", path: "/system-service/payment-channel/{id}", summary: "Change a disabled payment channel (409 while enabled)", tag, verb: updateChannel, params: idParam, body: channelBody },
    (ctx, { params, body }) => updateChannel(ctx, params.id, body),
  ),
  route(
    { method: "delete", path: "/system-service/payment-channel/{id}", summary: "Remove a disabled payment channel that took no payment", tag, verb: deleteChannel, params: idParam },
    (ctx, { params }) => deleteChannel(ctx, params.id),
  ),
  route(
    { method: "put", path: "/system-service/payment-channel/{id}/enable", summary: "Enable or disable a payment channel", tag, verb: enableChannel, params: idParam, body: channelEnableInput },
    (ctx, { params, body }) => enableChannel(ctx, params.id, body),
  ),
];
