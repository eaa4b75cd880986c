// Sound for moves and captures (Web Audio, no files), with a mute switch remembered in this
// browser: `sound(move)` plays, `muteButton(button, strings)` wires the switch.

let audio = null;
let muted = false;
try { muted = localStorage.getItem("damiera.muted") === "1"; } catch (_) { /* storage off */ }

// A short tick for a move, a lower double knock for a capture.
export function sound(move) {
  if (muted || !move) return;
  const capture = !!(move.captures && move.captures.length);
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    for (const at of capture ? [0, 0.09] : [0]) {
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = capture ? 330 : 660;
      gain.gain.setValueAtTime(0.18, audio.currentTime + at);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + at + 0.08);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + at);
      osc.stop(audio.currentTime + at + 0.09);
    }
    document.body.dataset.lastSound = capture ? "capture" : "move";
  } catch (_) { /* no audio in this browser */ }
}

export function muteButton(button, strings) {
  const show = () => {
    button.setAttribute("aria-pressed", muted ? "false" : "true");
    button.textContent = muted ? strings.sound_off : strings.sound_on;
  };
  button.addEventListener("click", () => {
    muted = !muted;
    try { localStorage.setItem("damiera.muted", muted ? "1" : "0"); } catch (_) { /* storage off */ }
    show();
  });
  show();
}

