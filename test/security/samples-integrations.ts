/**
 * Permission-matrix requests for integrations (issue 17): code playgrounds, allowed domains, bot
 * API keys, the Welcome Bot test message and video calls. See permission-samples.ts for the shape.
 */
import { unique } from "./objects.js";
import type { EndpointSample } from "./permission-samples.js";

const playground = () => ({ name: unique("Playground "), pygments_language: "Python", url_template: "https://python.example.com?code={code}" });

export const INTEGRATION_SAMPLES: Record<string, EndpointSample> = {
  "POST /realm/playgrounds": { build: () => ({ params: playground() }) },
  "DELETE /realm/playgrounds/:playground_id": {
    build: async ({ o }) => ({ path: { playground_id: (await o.ok("iago", { method: "POST", path: "/realm/playgrounds", params: playground() })).id } }),
  },
  "GET /realm/domains": { build: () => ({ params: {} }) },
  "POST /realm/domains": { build: () => ({ params: { domain: `${unique("d")}.example.com`.toLowerCase(), allow_subdomains: false } }) },
  "PATCH /realm/domains/:domain": {
    build: async ({ o }) => {
      const domain = `${unique("p")}.example.com`.toLowerCase();
      await o.ok("desdemona", { method: "POST", path: "/realm/domains", params: { domain, allow_subdomains: false } });
      return { path: { domain }, params: { allow_subdomains: true } };
    },
  },
  "DELETE /realm/domains/:domain": {
    build: async ({ o }) => {
      const domain = `${unique("r")}.example.com`.toLowerCase();
      await o.ok("desdemona", { method: "POST", path: "/realm/domains", params: { domain, allow_subdomains: false } });
      return { path: { domain } };
    },
  },
  "POST /realm/test_welcome_bot_custom_message": { build: () => ({ params: { welcome_message_custom_text: "Read the **rules** first." } }) },
  "GET /calls/bigbluebutton/create": { build: () => ({ params: { meeting_name: "matrix" } }) },
  "POST /calls/nextcloud_talk/create": { build: () => ({ params: { room_name: "matrix" } }) },
  "POST /calls/constructorgroups/create": { build: () => ({}) },
  "POST /calls/webex/create": { build: () => ({}) },
  "POST /bots/:bot_id/api_key/regenerate": { build: async ({ o }) => ({ path: { bot_id: (await o.bot("othello")).id } }) },
};
