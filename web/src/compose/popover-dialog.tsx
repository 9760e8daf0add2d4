/**
 * The shell of the compose area's small dialogs (emoji picker, time picker): a labelled
 * role="dialog" box that Escape closes without letting the key reach the compose box behind it.
 */
import type { ComponentChildren } from "preact";

export function PopoverDialog({ kind, label, onClose, class: className, children }: { kind: string; label: string; onClose(): void; class?: string; children: ComponentChildren }) {
  return (
    <div
      class={`${kind}${className ? ` ${className}` : ""}`}
      role="dialog"
      aria-label={label}
      onKeyDown={(e) => {
        if (e.key !== "Escape") return;
        e.stopPropagation();
        onClose();
      }}
    >
      {children}
    </div>
  );
}
