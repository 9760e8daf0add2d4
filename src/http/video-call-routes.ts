/**
 * `GET /calls/bigbluebutton/join?bigbluebutton=…`: where the link of GET /calls/bigbluebutton/create
 * leads a browser (Zulip's join_bigbluebutton, a logged-in web route, not under /api/v1). The
 * signed-in user is sent on to the BigBlueButton server's join URL.
 */
import type { FastifyInstance } from "fastify";
import { joinBigBlueButtonCall } from "../actions/video-calls.js";
import type { AppDeps } from "../deps.js";
import { ApiError } from "../errors.js";
import { authenticateBasicOrSession } from "./session-auth.js";

export function registerVideoCallRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get<{ Querystring: { bigbluebutton?: string } }>("/calls/bigbluebutton/join", async (request, reply) => {
    const { user } = await authenticateBasicOrSession(deps, request);
    const signed = request.query.bigbluebutton;
    if (typeof signed !== "string" || signed === "") throw new ApiError("Missing 'bigbluebutton' argument", "REQUEST_VARIABLE_MISSING", 400, { var_name: "bigbluebutton" });
    if (signed.length > 4096) throw new ApiError("Invalid signature.");
    return reply.header("cache-control", "no-store").redirect(await joinBigBlueButtonCall(deps.config, user, signed));
  });
}
