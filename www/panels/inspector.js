// @ts-check
/**
 * The node inspector: every field of the node last pointed at, focused,
 * or chosen in the Faults panel (it stays on that node until another is
 * picked), as the core reports it (`Playground.inspect`).
 * @module inspector
 */

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
    this.list.replaceChildren(
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
