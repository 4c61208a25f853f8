import { useEffect, useRef, useState } from "react";

/**
 * A form that opens from a button (the profile's email and password forms): opening moves the
 * focus into the form, closing back to its button, so neither leaves the focus nowhere. `reset`
 * clears what was typed when it closes.
 */
export function useFormDisclosure(reset: () => void) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    if (open) form.current?.querySelector("input")?.focus();
    else toggle.current?.focus();
  }, [open]);
  const show = () => {
    moved.current = true;
    setOpen(true);
  };
  const close = () => {
    moved.current = true;
    setOpen(false);
    reset();
  };
  return { open, show, close, toggle, form };
}
