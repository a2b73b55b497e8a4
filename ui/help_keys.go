package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"workrun/workrun"
)

// keyBinding is one keyboard shortcut of the main window. The table
// (Window.keyBindings) is the one source of the shortcuts: the canvas
// binds them (shortcuts), the menus show them (menu) and Help → Keyboard
// shortcuts lists them, so the three cannot disagree.
type keyBinding struct {
	id    string // the menu item that carries it ("" for none)
	label string
	// keys are bound on the window's canvas; keys[0] is the one shown.
	// Empty when the key is taken elsewhere (typed: Delete) — then named.
	keys  []fyne.Shortcut
	named string
	do    func()
	// menuKey: the menu item carries keys[0] as its shortcut. The
	// text-editing keys only name it in the label: a menu shortcut would
	// take them from the entry being typed in.
	menuKey bool
}

// keyBindings lists every shortcut the main window binds, in the order
// Help shows them.
func (w *Window) keyBindings() []keyBinding {
	ctrl := fyne.KeyModifierShortcutDefault
	key := func(k fyne.KeyName, m fyne.KeyModifier) fyne.Shortcut {
		return &desktop.CustomShortcut{KeyName: k, Modifier: m}
	}
	return []keyBinding{
		{id: "new", label: w.loc.X("wf.new", "New"), keys: []fyne.Shortcut{key(fyne.KeyN, ctrl)}, do: w.newWorkflow, menuKey: true},
		{id: "save", label: w.loc.X("wf.save", "Save"), keys: []fyne.Shortcut{key(fyne.KeyS, ctrl)}, do: w.save, menuKey: true},
		{id: "import", label: w.loc.X("wf.import_menu", "Import workflow file (.json)…"), keys: []fyne.Shortcut{key(fyne.KeyO, ctrl)}, do: w.importWorkflow, menuKey: true},
		{id: "export", label: w.loc.X("wf.export_menu", "Export workflow file (.json)…"), keys: []fyne.Shortcut{key(fyne.KeyE, ctrl)}, do: w.exportWorkflow, menuKey: true},
		{id: "quit", label: w.loc.X("quit.quit", "Quit"), keys: []fyne.Shortcut{key(fyne.KeyQ, ctrl)}, do: w.requestQuit, menuKey: true},
		{id: "undo", label: w.loc.X("edit.undo", "Undo"), keys: []fyne.Shortcut{&fyne.ShortcutUndo{}}, do: func() { w.doc.Undo() }},
		{id: "redo", label: w.loc.X("edit.redo", "Redo"), keys: []fyne.Shortcut{key(fyne.KeyZ, ctrl|fyne.KeyModifierShift), &fyne.ShortcutRedo{}}, do: func() { w.doc.Redo() }},
		{id: "copy", label: w.loc.X("edit.copy", "Copy"), keys: []fyne.Shortcut{&fyne.ShortcutCopy{}}, do: func() { w.doc.Copy() }},
		{id: "paste", label: w.loc.X("edit.paste", "Paste"), keys: []fyne.Shortcut{&fyne.ShortcutPaste{}}, do: func() { w.doc.Paste() }},
		{id: "duplicate", label: w.loc.X("edit.duplicate", "Duplicate"), keys: []fyne.Shortcut{key(fyne.KeyD, ctrl)}, do: func() { w.doc.Duplicate() }, menuKey: true},
		{id: "delete", label: w.loc.X("edit.delete", "Delete"), named: keysName(fyne.KeyDelete, 0) + " / " + keysName(fyne.KeyBackspace, 0), do: func() { w.doc.DeleteSelection() }},
		{id: "select_all", label: w.loc.X("edit.select_all", "Select all"), keys: []fyne.Shortcut{&fyne.ShortcutSelectAll{}}, do: func() { w.doc.SelectAll() }},
		{id: "zoom_in", label: w.loc.X("view.zoom_in", "Zoom in"), keys: []fyne.Shortcut{key(fyne.KeyEqual, ctrl)}, do: w.zoomIn, menuKey: true},
		{id: "zoom_out", label: w.loc.X("view.zoom_out", "Zoom out"), keys: []fyne.Shortcut{key(fyne.KeyMinus, ctrl)}, do: w.zoomOut, menuKey: true},
		{id: "fit", label: w.loc.X("view.fit", "Fit to view"), keys: []fyne.Shortcut{key(fyne.Key0, ctrl)}, do: func() { w.cv.Fit() }, menuKey: true},
		{id: "toggle_list", label: w.loc.X("view.toggle_list", "Show or hide the workflow list"), keys: []fyne.Shortcut{key(fyne.KeyL, ctrl)}, do: w.toggleList, menuKey: true},
		{id: "toggle_inspector", label: w.loc.X("view.toggle_inspector", "Show or hide the inspector"), keys: []fyne.Shortcut{key(fyne.KeyI, ctrl)}, do: w.toggleInspector, menuKey: true},
		{id: "run", label: w.loc.X("run.run", "Run"), keys: []fyne.Shortcut{key(fyne.KeyR, ctrl)}, do: w.runClicked, menuKey: true},
	}
}

// binding returns the table's entry id; a missing id is a programming
// error the menu test catches.
func (w *Window) binding(id string) keyBinding {
	for _, b := range w.keyBindings() {
		if b.id == id {
			return b
		}
	}
	panic("ui: no key binding " + id)
}

// keysText is how the window writes a binding's keys ("Ctrl+Shift+Z").
func (b keyBinding) keysText() string {
	if len(b.keys) == 0 {
		return b.named
	}
	return shortcutText(b.keys[0])
}

// menuItem is the binding's menu item: the shortcut as the item's own hint,
// or for the text-editing keys named in the label.
func (b keyBinding) menuItem() *fyne.MenuItem {
	if b.menuKey {
		m := fyne.NewMenuItem(b.label, b.do)
		m.Shortcut = b.keys[0]
		return m
	}
	return fyne.NewMenuItem(b.label+"    "+b.keysText(), b.do)
}

// shortcutText names a shortcut's keys as a person types them.
func shortcutText(sc fyne.Shortcut) string {
	if k, ok := sc.(fyne.KeyboardShortcut); ok {
		return keysName(k.Key(), k.Mod())
	}
	return sc.ShortcutName()
}

// keysName writes modifiers and key as "Ctrl+Shift+Z".
func keysName(k fyne.KeyName, m fyne.KeyModifier) string {
	var parts []string
	for _, mod := range []struct {
		m    fyne.KeyModifier
		name string
	}{{fyne.KeyModifierControl, "Ctrl"}, {fyne.KeyModifierSuper, "Cmd"}, {fyne.KeyModifierAlt, "Alt"}, {fyne.KeyModifierShift, "Shift"}} {
		if m&mod.m != 0 {
			parts = append(parts, mod.name)
		}
	}
	name := string(k)
	switch k {
	case fyne.KeyEqual:
		name = "="
	case fyne.KeyMinus:
		name = "-"
	case fyne.KeyEscape:
		name = "Esc"
	}
	return strings.Join(append(parts, name), "+")
}

// bindKeys binds every shortcut of the table on the window's canvas
// (docs/product.md W1). Entries keep their own copy and paste because a
// focused widget receives shortcuts first.
func (w *Window) bindKeys() {
	c := w.win.Canvas()
	for _, b := range w.keyBindings() {
		do := b.do
		for _, sc := range b.keys {
			c.AddShortcut(sc, func(fyne.Shortcut) { do() })
		}
	}
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyDelete || ev.Name == fyne.KeyBackspace {
			w.doc.DeleteSelection()
		}
	})
}

// otherKeys are the keys bound outside the main window's table: the
// read-only windows (run record, help pages, file format) close with them
// (closeKeys in records.go).
func otherKeys(loc workrun.Localizer) [][2]string {
	return [][2]string{
		{loc.X("keys.close_window", "Close a run record or help window"), keysName(fyne.KeyEscape, 0) + " / " + keysName(fyne.KeyW, fyne.KeyModifierShortcutDefault)},
		{loc.X("keys.add_select", "Add a node to the selection"), keysName("", fyne.KeyModifierShift) + loc.X("keys.click", "click")},
	}
}
