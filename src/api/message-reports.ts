/** Reporting a message (Zulip's report-message, FL 382; report types from register's server_report_message_types, FL 435). */
import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_TYPE_KEYS, checkReportMessage } from "../actions/messages/message-reports.js";
import { endpoint } from "../http/endpoint.js";
import { p } from "../http/params.js";

export const reportMessage = endpoint({
  method: "POST",
  path: "/messages/:message_id/report",
  auth: "user",
  params: {
    message_id: p.int().path(),
    report_type: p.oneOf(REPORT_TYPE_KEYS),
    description: p.str({ maxLength: MAX_REPORT_DESCRIPTION_LENGTH }).default(""),
  },
  async handler(ctx, params) {
    await checkReportMessage(ctx.deps, ctx.realm, ctx.user, params.message_id, params.report_type, params.description);
  },
});

export const messageReportEndpoints = [reportMessage];
