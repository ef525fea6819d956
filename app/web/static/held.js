// A control's value while the person's change is on its way: theirs, until the service's
// state says the same (or refuses it); the service's otherwise. So a redraw (anyone's move,
// anyone's readiness) never takes back what the person just chose.
import { useEffect, useState } from "./hooks.js";

export function useHeld(server) {
  const [held, setHeld] = useState(null);
  useEffect(() => { if (held && held.value === server) setHeld(null); }, [server]);
  const change = async (value, send) => {
    setHeld({ value });
    if (!(await send())) setHeld(null);
  };
  return [held ? held.value : server, change];
}
