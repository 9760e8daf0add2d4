/**
 * The main area for a narrow: its title bar, the message list and the compose box, which starts
 * addressed to the narrow's conversation and follows a reply to any message.
 */
import { useEffect, useState } from "preact/hooks";
import { composeTargetFor, narrowOfMessage, narrowTitle, type ComposeTarget } from "../narrow";
import { narrowHref, type Narrow } from "../router";
import { useClientState } from "../session";
import type { Message } from "../state/types";
import { Compose } from "./compose";
import { MessageList } from "./message-list";

export function MessageView({ narrow }: { narrow: Narrow }) {
  const myId = useClientState((s) => s.userId);
  const title = useClientState((s) => narrowTitle(s, narrow));
  const description = useClientState((s) => (narrow.kind === "channel" || narrow.kind === "topic" ? (s.channels.get(narrow.streamId)?.description ?? "") : ""));
  const narrowKey = narrowHref(narrow);
  const [target, setTarget] = useState<ComposeTarget>(() => composeTargetFor(narrow, myId));
  const [focusRequest, setFocusRequest] = useState(0);
  const [insert, setInsert] = useState<{ text: string; seq: number } | null>(null);

  useEffect(() => {
    setTarget(composeTargetFor(narrow, myId));
    document.title = `${title} · Parley`;
  }, [narrowKey]);

  function reply(message: Message, quote?: string) {
    setTarget(composeTargetFor(narrowOfMessage(message, myId), myId));
    setFocusRequest((n) => n + 1);
    if (quote) setInsert((previous) => ({ text: quote, seq: (previous?.seq ?? 0) + 1 }));
  }

  return (
    <div class="message-view">
      <header class="narrow-bar">
        <h1 id="narrow-title">{title}</h1>
        {description && <p class="narrow-description">{description}</p>}
      </header>
      <MessageList key={narrowKey} narrow={narrow} narrowKey={narrowKey} title={title} onReply={reply} />
      <Compose target={target} onTargetChange={setTarget} focusRequest={focusRequest} insert={insert} />
    </div>
  );
}
