// A control's value while the person's changes are on their way: the last one pressed, until
// every change sent from it is answered (the table stores read the table again before they
// answer), then the service's. So a redraw (anyone's move, anyone's readiness) never takes
// back what the person just chose, and a second press made before the first is answered is
// judged on what the control shows (the first press's value), never on a stale state. A
// refused change leaves the control on the value of a later press still on its way, or, if
// none, on the service's.
import { useEffect, useRef, useState } from "./hooks.js";

export function useHeld(server) {
  const [held, setHeld] = useState(null);
  const sending = useRef(0); // changes sent from this control and not yet answered
  useEffect(() => { if (held && !sending.current && held.value === server) setHeld(null); }, [server, held]);
  const change = async (value, send) => {
    sending.current += 1;
    setHeld({ value });
    try {
      await send();
    } finally {
      sending.current -= 1;
      if (!sending.current) setHeld(null);
    }
  };
  return [held ? held.value : server, change];
}
