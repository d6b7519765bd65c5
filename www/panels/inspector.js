// @ts-check
/**
 * The node inspector: every field of the node last pointed at, focused,
 * or chosen in the Faults panel (it stays on that node until another is
 * picked), as the core reports it (`Playground.inspect`). A service node
 * (drawn as a rounded square, "service": not a participant) also gets a
 * line saying why it is in the run.
 * @module inspector
 */

/**
 * Why each kind of service node is in the run, by the `kind` the core
 * reports for it (core/algorithms/src/algorithms/consensus/resource.rs and
 * service.rs; see extras.rs there).
 * @type {Record<string, string>}
 */
export const SERVICE_NOTES = {
  'storage service':
    'Not a participant: the storage the leader writes to. Each write carries the leader’s term (or epoch, ballot, znode number, lease version) as a fencing token; with fencing on, an older token is refused, so an old leader that was paused or cut off cannot overwrite its successor’s work.',
  'coordination service':
    'Not a participant: it stands for a ZooKeeper ensemble or the Kubernetes API server. It holds the sessions, znodes and Lease the nodes campaign on, and lets a session or lease that is not renewed in time expire.',
};

export class Inspector {
  /**
   * @param {HTMLElement} title heading to name the node in
   * @param {HTMLDListElement} list
   */
  constructor(title, list) {
    this.title = title;
    this.list = list;
    /** @type {number | null} */
    this.node = null;
    /** What is shown now, to skip redrawing the same thing every frame. @private */
    this.shown = '';
  }

  /**
   * Chooses the node to show (null: none).
   * @param {number | null} id
   * @param {import('../player/model.js').Model} model
   */
  select(id, model) {
    this.node = id;
    this.render(model);
  }

  /** @param {import('../player/model.js').Model} model */
  render(model) {
    const id = this.node;
    if (id === null || id >= model.nodeTotal()) {
      if (this.shown === 'none') return;
      this.shown = 'none';
      this.title.textContent = 'Node';
      this.list.replaceChildren();
      const hint = document.createElement('dd');
      hint.className = 'note';
      hint.textContent = 'Point at a node (or tab to it, or choose it under Faults) to see its state.';
      this.list.append(hint);
      return;
    }
    /** @type {[string, string][]} */
    const fields = model.playground.inspect(id);
    const key = JSON.stringify([id, fields]);
    if (key === this.shown) return;
    this.shown = key;
    this.title.textContent = `Node n${id}`;
    const kind = fields.find(([name]) => name === 'kind')?.[1] ?? '';
    const why = id >= model.playground.node_count() ? SERVICE_NOTES[kind] : undefined;
    /** @type {HTMLElement[]} */
    const note = [];
    if (why) {
      const dd = document.createElement('dd');
      dd.className = 'note service-note';
      dd.dataset.testid = 'service-note';
      dd.textContent = why;
      note.push(dd);
    }
    this.list.replaceChildren(
      ...note,
      ...fields.flatMap(([name, value]) => {
        const dt = document.createElement('dt');
        dt.textContent = name;
        const dd = document.createElement('dd');
        dd.textContent = value;
        return [dt, dd];
      }),
    );
  }
}
