/**
 * "Othello is typing…" for the conversation being viewed or written to (spec 4.1 rule 4: shown
 * from a start event until a stop, a message from them, or the expiry period without a new start).
 */
import { listNames } from "../format";
import { useClientState } from "../session";
import { userName } from "../state/client-state";

export function TypingIndicator({ conversation }: { conversation: string | null }) {
  const names = useClientState((s) => s.typing.filter((t) => t.conversation === conversation).map((t) => userName(s, t.senderId)));
  const text = names.length === 0 ? "" : `${listNames(names)} ${names.length === 1 ? "is" : "are"} typing…`;
  return (
    <div class="typing-indicator" role="status" aria-live="polite">
      {text}
    </div>
  );
}
