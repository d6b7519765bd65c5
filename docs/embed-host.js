// @ts-check
/**
 * The host side of docs/embed.html: the buttons under figure 3 drive that
 * embed through its postMessage API, and the events it sends back are
 * listed under it. The same code as the copy-paste snippet on the page,
 * plus the list. Text only (textContent), never HTML from a message.
 * @module embed-host
 */

/** Marks the messages an embed posts. */
const SOURCE = 'election-playground';
/** Most events listed (the latest). */
const MAX_LISTED = 200;

const frame = /** @type {HTMLIFrameElement | null} */ (document.getElementById('zk'));
const list = document.querySelector('[data-testid="host-events"]');
const state = document.querySelector('[data-testid="host-state"]');

if (frame && list && state) {
  const PLAYGROUND = new URL(frame.src, window.location.href).origin;

  /** @param {object} command */
  const send = (command) => frame.contentWindow?.postMessage(command, PLAYGROUND);

  /**
   * One line for an event from the figure.
   * @param {any} m
   * @returns {string}
   */
  const describe = (m) => {
    switch (m.type) {
      case 'ready':
        return `ready: ${m.algorithm}, ${m.nodes} nodes, seed ${m.seed}, ${m.from_ms}-${m.to_ms} ms`;
      case 'ok':
        return `ok ${m.command}: now ${m.time_ms} ms, leader ${m.leader ?? 'none'}`;
      case 'error':
        return `error${m.command ? ` (${m.command})` : ''}: ${m.field}: ${m.message}`;
      case 'role':
        return `${m.time_ms} ms: n${m.node} is ${m.role}${m.term === null ? '' : ` (term ${m.term})`}`;
      case 'violation':
        return `${m.time_ms} ms: ${m.check}: ${m.description}`;
      default:
        return String(m.type);
    }
  };

  window.addEventListener('message', (e) => {
    if (e.origin !== PLAYGROUND || e.source !== frame.contentWindow) return;
    const m = e.data;
    if (typeof m !== 'object' || m === null || m.source !== SOURCE) return;
    if (m.type === 'time' || m.type === 'ok' || m.type === 'ready') {
      const leaders = Array.isArray(m.leaders) && m.leaders.length > 1 ? ` (leaders: ${m.leaders.map((n) => `n${n}`).join(', ')})` : '';
      state.textContent = `${m.playing ? 'Playing' : 'Paused'} at ${m.time_ms} ms; leader ${m.leader === null ? 'none' : `n${m.leader}`}${leaders}; trace ${m.trace_hash}`;
    }
    if (m.type === 'time') return;
    const li = document.createElement('li');
    li.dataset.type = String(m.type);
    li.textContent = describe(m);
    list.prepend(li);
    while (list.children.length > MAX_LISTED) list.lastElementChild?.remove();
  });

  for (const button of document.querySelectorAll('[data-command]')) {
    if (!(button instanceof HTMLButtonElement)) continue;
    button.addEventListener('click', () => {
      const type = button.dataset.command;
      if (type === 'seek') send({ type, ms: Number(button.dataset.ms) });
      else if (type === 'load') send({ type, link: button.dataset.link });
      else send({ type });
    });
  }
}
