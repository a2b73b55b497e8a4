package ui

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"

	"workrun/assets"
	"workrun/workrun"
)

// Fonts. Fyne draws with its bundled Noto Sans, which has no CJK glyphs;
// for a rune its fonts lack it asks the system's fonts, so on a machine
// without a CJK font every Chinese label is a row of boxes. The theme
// therefore puts a CJK font first for ordinary text:
//
//   - in Chinese, the system's CJK font as fontconfig names it (one
//     consistent face for our words and an agent's), else
//   - the subset of WenQuanYi Micro Hei embedded in package assets, which
//     holds only CJK glyphs: Latin text falls through to Fyne's own font,
//     so the English window looks as it always did, and "简体中文" in the
//     Settings menu renders even where the system has no CJK font at all.
//
// Monospace and symbols keep Fyne's fonts.

// appTheme is Fyne's default theme with a CJK-capable text font.
type appTheme struct {
	fyne.Theme
	text fyne.Resource
}

func (t *appTheme) Font(s fyne.TextStyle) fyne.Resource {
	if s.Symbol || s.Monospace || t.text == nil {
		return t.Theme.Font(s)
	}
	return t.text
}

var cjkSubset = fyne.NewStaticResource("cjk-subset.ttf", assets.CJKFont)

// newAppTheme returns the theme for language code ("en", "zh-Hans"); ctx
// bounds asking fontconfig.
func newAppTheme(ctx context.Context, code string) fyne.Theme {
	t := &appTheme{Theme: theme.DefaultTheme(), text: cjkSubset}
	if strings.HasPrefix(code, "zh") {
		if f := systemCJKFont(ctx); f != nil {
			t.text = f
		}
	}
	return t
}

// applyTheme sets the theme for loc's language on a.
func applyTheme(ctx context.Context, loc workrun.Localizer, a fyne.App) {
	a.Settings().SetTheme(newAppTheme(ctx, loc.Language()))
}

// fontconfigTimeout bounds the fontconfig calls made when the window is
// built in Chinese.
const fontconfigTimeout = 3 * time.Second

var (
	sysCJKOnce sync.Once
	sysCJK     fyne.Resource
)

// systemCJKFont returns the system's Chinese font as one TrueType/OpenType
// face (the first of a collection), or nil when fontconfig names none that
// really has Chinese glyphs. It asks once per process, within ctx and at
// most fontconfigTimeout.
func systemCJKFont(ctx context.Context) fyne.Resource {
	sysCJKOnce.Do(func() {
		for _, path := range fontconfigCJKFiles(ctx) {
			b, err := loadFace(path)
			if err != nil {
				fyne.LogError("load CJK font "+path, err)
				continue
			}
			if hasRunes(b, "中文简体运行") {
				sysCJK = fyne.NewStaticResource("system-cjk.ttf", b)
				return
			}
		}
	})
	return sysCJK
}

// fontconfigCJKFiles lists candidate font files: fontconfig's best match for
// Simplified Chinese first, then every font it says covers Chinese.
// fc-match answers with the nearest font even when none covers Chinese
// (DejaVu, say); the caller checks the glyphs.
func fontconfigCJKFiles(ctx context.Context) []string {
	ctx, cancel := context.WithTimeout(ctx, fontconfigTimeout)
	defer cancel()
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		s = strings.TrimSpace(s)
		s = strings.TrimSuffix(s, ":")
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if b, err := exec.CommandContext(ctx, "fc-match", "-f", "%{file}", ":lang=zh-cn").Output(); err == nil {
		add(string(b))
	}
	if b, err := exec.CommandContext(ctx, "fc-list", ":lang=zh-cn", "file").Output(); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			add(l)
		}
	}
	return out
}

// loadFace reads a font file; of a collection (.ttc) it returns the first
// face as a standalone font, since Fyne parses single faces only.
func loadFace(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(b, []byte("ttcf")) {
		return firstFaceOfCollection(b)
	}
	return b, nil
}

var errBadCollection = errors.New("malformed font collection")

// firstFaceOfCollection copies face 0 of a TrueType collection into a
// standalone font: its table directory with offsets rewritten, then its
// tables, each padded to four bytes.
func firstFaceOfCollection(b []byte) ([]byte, error) {
	be := binary.BigEndian
	if len(b) < 16 || be.Uint32(b[8:]) == 0 {
		return nil, errBadCollection
	}
	off := int(be.Uint32(b[12:]))
	if off+12 > len(b) {
		return nil, errBadCollection
	}
	n := int(be.Uint16(b[off+4:]))
	dir := off + 12
	if dir+16*n > len(b) {
		return nil, errBadCollection
	}
	head := make([]byte, 12+16*n)
	copy(head, b[off:off+12])
	var body []byte
	for i := range n {
		rec := b[dir+16*i : dir+16*i+16]
		to, ln := int(be.Uint32(rec[8:])), int(be.Uint32(rec[12:]))
		if to < 0 || ln < 0 || to+ln > len(b) {
			return nil, fmt.Errorf("%w: table %d out of range", errBadCollection, i)
		}
		out := head[12+16*i : 12+16*i+16]
		copy(out, rec)
		be.PutUint32(out[8:], uint32(len(head)+len(body)))
		body = append(body, b[to:to+ln]...)
		for len(body)%4 != 0 {
			body = append(body, 0)
		}
	}
	return append(head, body...), nil
}

// hasRunes reports whether the font in b parses and has a glyph for every
// rune of s.
func hasRunes(b []byte, s string) bool {
	f, err := font.ParseTTF(bytes.NewReader(b))
	if err != nil {
		return false
	}
	for _, r := range s {
		if _, ok := f.NominalGlyph(r); !ok {
			return false
		}
	}
	return true
}
