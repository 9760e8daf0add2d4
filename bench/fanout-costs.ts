/**
 * What delivering one message event to N parked long-polls costs, in-process, without sockets:
 * `npx tsx bench/fanout-costs.ts [--pollers 1000] [--rounds 200]`. N queues each park a poll; a
 * message event is delivered to all of them (QueueRegistry.deliver, as after a send's commit) and
 * every poll's answer is serialised as GET /events does. Reports how long the publisher waits
 * before its own code runs again (the sender's HTTP answer, issue 21 item 4) and the CPU per
 * delivery (process.cpuUsage), both after 20 unmeasured rounds.
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { eventsJson, type EventQueue } from "../src/events/queue.js";
import { QueueRegistry } from "../src/events/registry.js";
import { stringifyWithJsonText } from "../src/lib/json-text.js";

const WARMUP_ROUNDS = 20;

const message = (id: number) => ({
  type: "message",
  flags: [],
  raw_content: "hello",
  message: {
    id, sender_id: 5, content: '<p>hello there, a message of ordinary length with a <a href="https://example.com">link</a></p>', subject: "fanout",
    type: "stream", stream_id: 3, display_recipient: "everyone", recipient_id: 9, timestamp: 1_700_000_000, sender_full_name: "User 2",
    sender_email: "user2@bench.test", avatar_url: null, client: "website", is_me_message: false, reactions: [], submessages: [], topic_links: [],
    content_type: "text/html", sender_realm_str: "",
  },
});

/** One parked poll answered as the GET /events handler and the envelope answer it. */
async function poll(queue: EventQueue): Promise<string> {
  const entries = await queue.wait().promise;
  queue.prune(queue.lastEventId);
  return stringifyWithJsonText({ result: "success", msg: "", events: eventsJson(entries), queue_id: queue.id });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pollers: { type: "string", default: "1000" }, rounds: { type: "string", default: "200" } } });
  const n = Number(values.pollers);
  const rounds = Number(values.rounds);
  const registry = new QueueRegistry();
  const opts = { realmId: 1, eventTypes: new Set(["message"]), applyMarkdown: true, clientGravatar: true, allPublicStreams: false, capabilities: {}, narrow: null, now: 1 };
  const queues = Array.from({ length: n }, (_, i) => registry.create({ ...opts, userId: i + 1 }));
  const userIds = queues.map((q) => q.userId);
  let publisherUs = 0;
  let cpuUs = 0;
  for (let k = 0; k < rounds + WARMUP_ROUNDS; k++) {
    const answers = Promise.all(queues.map(poll));
    const cpu = process.cpuUsage();
    const start = performance.now();
    registry.deliver(message(k), userIds);
    await Promise.resolve(); // where the publisher's own code continues
    const continued = performance.now();
    await answers;
    const used = process.cpuUsage(cpu);
    if (k < WARMUP_ROUNDS) continue;
    publisherUs += (continued - start) * 1000;
    cpuUs += used.user + used.system;
  }
  console.log(`${n} parked polls, ${rounds} messages: the publisher continues after ${(publisherUs / rounds).toFixed(0)} µs; CPU ${(cpuUs / rounds / n).toFixed(2)} µs per delivery`);
}

void main();
