package ui

import (
	"encoding/json"
	"slices"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"workrun/ui/canvas"
	"workrun/workrun"
)

// kindTable is the node kinds as their packages describe them
// (Deps.Kinds): the palette, new nodes' configs and the inspector's forms
// all come from it, so the window declares no kind's config itself.
type kindTable struct {
	order  []string // palette order: by group, then as Deps.Kinds lists them
	byType map[string]workrun.KindInfo
}

// kindsNow is the table of the window opened last; the canvas, palette and
// run panel read labels from it.
var kindsNow atomic.Pointer[kindTable]

// setKinds makes infos the kinds the window shows.
func setKinds(infos []workrun.KindInfo) {
	t := &kindTable{byType: make(map[string]workrun.KindInfo, len(infos))}
	for _, g := range workrun.KindGroups {
		for _, k := range infos {
			if k.Group == g {
				t.order = append(t.order, k.Type)
			}
		}
	}
	for _, k := range infos {
		if !slices.Contains(workrun.KindGroups, k.Group) {
			t.order = append(t.order, k.Type) // a group this window has no heading for
		}
		t.byType[k.Type] = k
	}
	kindsNow.Store(t)
}

func kinds() *kindTable {
	if t := kindsNow.Load(); t != nil {
		return t
	}
	return &kindTable{}
}

// kindInfo is the description of kind.
func kindInfo(kind string) (workrun.KindInfo, bool) {
	k, ok := kinds().byType[kind]
	return k, ok
}

// keysOf lists the config keys of kind whose value is v (and, for a
// ValueURL, whose Protocol is protocol; "" for any).
func keysOf(kind string, v workrun.ValueKind, protocol string) []string {
	k, _ := kindInfo(kind)
	var out []string
	for _, f := range k.Fields {
		if f.Value == v && (protocol == "" || f.Protocol == protocol) {
			out = append(out, f.Key)
		}
	}
	return out
}

// callsRemote reports whether nodes of kind hand work to a remote server
// (the kind describes a URL to call), and so keep remote task records.
func callsRemote(kind string) bool { return len(keysOf(kind, workrun.ValueURL, "")) > 0 }

// kindTypes lists the kinds in palette order.
func kindTypes() []string { return slices.Clone(kinds().order) }

// KindGroup is the palette group of a kind; a kind not described goes to
// Logic.
func KindGroup(kind string) string {
	if k, ok := kindInfo(kind); ok && slices.Contains(workrun.KindGroups, k.Group) {
		return string(k.Group)
	}
	return string(workrun.GroupLogic)
}

// PaletteGroup is one heading of the palette and its kinds in order: the
// canvas package's, which draws it.
type PaletteGroup = canvas.PaletteGroup

// KindGroups returns the palette's groups with their kinds.
func KindGroups(loc workrun.Localizer) []PaletteGroup {
	var gs []PaletteGroup
	for _, g := range workrun.KindGroups {
		pg := PaletteGroup{Name: string(g), Label: groupLabel(loc, g)}
		for _, k := range kindTypes() {
			if KindGroup(k) == string(g) {
				pg.Kinds = append(pg.Kinds, k)
			}
		}
		gs = append(gs, pg)
	}
	return gs
}

func groupLabel(loc workrun.Localizer, g workrun.KindGroup) string {
	switch g {
	case workrun.GroupAgents:
		return loc.X("palette.agents", "Agents")
	case workrun.GroupLogic:
		return loc.X("palette.logic", "Logic")
	case workrun.GroupPeople:
		return loc.X("palette.people", "People")
	case workrun.GroupLocal:
		return loc.X("palette.local", "Local")
	}
	return string(g)
}

// KindLabel is the name of a kind in the window's language, from the
// kind's own catalogue; the type itself when the kind is not described.
func KindLabel(loc workrun.Localizer, kind string) string {
	if k, ok := kindInfo(kind); ok && k.Label.Key != "" {
		return k.Label.In(loc.Messages())
	}
	return kind
}

// KindIcon is the icon drawn on a node of this kind (presentation only; a
// kind without its own icon gets a generic one).
func KindIcon(kind string) fyne.Resource {
	switch kind {
	case "start":
		return theme.MediaPlayIcon()
	case "set":
		return theme.DocumentCreateIcon()
	case "condition":
		return theme.QuestionIcon()
	case "join":
		return theme.MenuExpandIcon()
	case "output":
		return theme.LogoutIcon()
	case "human_review":
		return theme.VisibilityIcon()
	case "ask_human":
		return theme.MailReplyIcon()
	case "process":
		return theme.ComputerIcon()
	case "remote_agent":
		return theme.StorageIcon()
	case "remote_mcp":
		return theme.SettingsIcon()
	}
	return theme.FileApplicationIcon()
}

// DefaultConfig is the config a new node of kind starts with, as the kind
// describes it, its Text defaults in loc's language; "{}" for a kind not
// described.
func DefaultConfig(loc workrun.Localizer, kind string) json.RawMessage {
	if k, ok := kindInfo(kind); ok {
		return k.DefaultConfigIn(loc.Messages())
	}
	return json.RawMessage("{}")
}
