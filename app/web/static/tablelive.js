// What every table's store (tablestore.js for Blef, kindstore.js for the other games) does to
// stay current and to call a person back, whatever the game: the table's websocket (opened
// as a spectator's: a seat's secret never goes into a URL), reads while it is closed, one
// read as the page comes back into view or online, and the tone of a turn.
import { live } from "./live.js";

/** A short tone (a turn begins; sound switched on). Silent where the page has no audio. */
export function beep() {
  try {
    const audio = new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch { /* no sound here */ }
}

/** Follow table `game`: each pushed message goes to `pushed(frame)`; `poll(true)` until the
 * socket opens and again whenever it closes, `poll(false)` as it opens, then one `refresh()`;
 * `s.live` says whether it is open, and each change of it calls `changed()`. A socket may die
 * without a close while the device sleeps or changes network: the page reads once
 * (`refresh()`, a read, not a poll) as it comes back into view or online. Answers the
 * function that closes the socket and removes the listeners (stopping the polls is the
 * store's). */
export function followTable(game, s, { pushed, poll, refresh, changed }) {
  const caughtUp = () => {
    if (document.visibilityState !== "hidden") refresh();
  };
  const socket = live(`/ws?game_uuid=${encodeURIComponent(game)}`, {
    onMessage: pushed,
    onOpen() { poll(false); s.live = true; refresh(); changed(); },
    onClose() { s.live = false; poll(true); changed(); },
  });
  poll(true); // until the socket opens
  document.addEventListener("visibilitychange", caughtUp);
  addEventListener("online", caughtUp);
  return () => {
    socket.close();
    document.removeEventListener("visibilitychange", caughtUp);
    removeEventListener("online", caughtUp);
  };
}
