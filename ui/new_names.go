package ui

import (
	"encoding/json"
	"slices"
	"strings"

	"workrun/workrun"
)

// What is made in the window is named in the window's language: a new
// workflow, a new node's title and its default words, a sample opened
// from Help and a workflow made from a shipped example. What was saved
// keeps the names it was given (docs/product.md, "Languages").

// windowWord is key in language code ("en", "zh-Hans") from the window's
// catalogue (windowWords), fallback when it has none. A sample is
// recognised by its name in either language, so the language is named
// here, not taken from the window.
func windowWord(code, key, fallback string) string {
	return workrun.NewLocalizer(code).X(key, fallback)
}

// renameUntitled gives the window's new, untouched workflow the untitled
// name of the language just chosen: it was named by the window, not by
// the person, and is not saved.
func (w *Window) renameUntitled() {
	if w.wfID != "" || w.doc.Dirty() {
		return
	}
	for _, code := range Languages {
		if w.doc.Name() == windowWord(code, "wf.untitled", "Untitled workflow") {
			w.doc.SetNameUnedited(w.loc.X("wf.untitled", "Untitled workflow"))
			w.updateTitle()
			return
		}
	}
}

// exampleKey is the catalogue key prefix of the shipped example file
// ("failing-process.json" → "example.failing_process").
func exampleKey(file string) string {
	return "example." + strings.ReplaceAll(strings.TrimSuffix(file, ".json"), "-", "_")
}

// localExample is the example wf of file in the window's language: its
// name, its nodes' titles and the words in their configs (a greeting, a
// prompt) from the catalogue, under exampleKey(file) + ".name", + "." +
// node id, + "." + node id + "." + the config path. Config values
// without an entry (field names, commands, URLs) stay as they are.
func localExample(loc workrun.Localizer, file string, wf workrun.Workflow) workrun.Workflow {
	key := exampleKey(file)
	wf.Name = loc.X(key+".name", wf.Name)
	nodes := slices.Clone(wf.Nodes)
	for i, n := range nodes {
		if n.Title != "" {
			nodes[i].Title = loc.X(key+"."+n.ID, n.Title)
		}
		var cfg map[string]any
		if len(n.Config) == 0 || json.Unmarshal(n.Config, &cfg) != nil {
			continue
		}
		if localConfig(loc, cfg, key+"."+n.ID) {
			if b, err := json.Marshal(cfg); err == nil {
				nodes[i].Config = b
			}
		}
	}
	wf.Nodes = nodes
	return wf
}

// localConfig replaces the strings of the object m that the catalogue has
// under prefix + "." + their key path; it reports whether one changed.
func localConfig(loc workrun.Localizer, m map[string]any, prefix string) bool {
	changed := false
	for k, v := range m {
		switch t := v.(type) {
		case string:
			if s := loc.X(prefix+"."+k, t); s != t {
				m[k], changed = s, true
			}
		case map[string]any:
			changed = localConfig(loc, t, prefix+"."+k) || changed
		}
	}
	return changed
}

// sampleNames are the names of each sample in every language: a copy
// saved under either is the same sample (Help → Sample reuses it).
var sampleNames [][]string

// noteSample registers a sample by its name key: its names in every
// language, and for each the inputs its run dialog starts with (each
// input's words under inputKeys[field]; fallbacks in English).
func noteSample(nameKey, name string, inputs map[string][2]string) {
	var names []string
	for _, code := range Languages {
		n := windowWord(code, nameKey, name)
		names = append(names, n)
		in := map[string]string{}
		for field, kv := range inputs {
			in[field] = windowWord(code, kv[0], kv[1])
		}
		SampleInputs[n] = in
	}
	sampleNames = append(sampleNames, names)
}

// sameSample reports whether a saved workflow named saved is a copy of
// the sample named name (in either language).
func sameSample(saved, name string) bool {
	if saved == name {
		return true
	}
	for _, ns := range sampleNames {
		if slices.Contains(ns, name) {
			return slices.Contains(ns, saved)
		}
	}
	return false
}
