package ui

import (
	"bytes"
	"image"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/go-text/typesetting/font"

	"workrun/assets"
)

// renderLabel draws text in a label with the app's current theme (the
// software painter of the test driver) and returns the image.
func renderLabel(t *testing.T, text string) image.Image {
	t.Helper()
	w := test.NewWindow(container.NewStack(widget.NewLabel(text)))
	defer w.Close()
	w.Resize(fyne.NewSize(320, 60))
	return w.Canvas().Capture()
}

func sameImage(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// TestChineseLabelsRenderGlyphs draws Chinese with the window's own theme in
// both languages. A font without the glyphs draws the same missing-glyph box
// for every character, so two different four-character words would come out
// identical, and identical to four private-use characters no font has.
func TestChineseLabelsRenderGlyphs(t *testing.T) {
	test.NewTempApp(t)
	for _, code := range []string{"zh-Hans", "en"} {
		fyne.CurrentApp().Settings().SetTheme(newAppTheme(t.Context(), code))
		a := renderLabel(t, "运行失败")
		b := renderLabel(t, "远程任务")
		tofu := renderLabel(t, "\U000F0001\U000F0002\U000F0003\U000F0004")
		if sameImage(a, b) {
			t.Errorf("%s: %q and %q render the same image: the glyphs are missing", code, "运行失败", "远程任务")
		}
		if sameImage(a, tofu) {
			t.Errorf("%s: %q renders as missing-glyph boxes", code, "运行失败")
		}
		// The Settings menu's language item, in the English window too.
		if sameImage(renderLabel(t, "简体中文"), renderLabel(t, "\U000F0001\U000F0002\U000F0003\U000F0004")) {
			t.Errorf("%s: 简体中文 renders as boxes", code)
		}
	}
}

// TestChineseThemeUsesTheSystemCJKFont: with a CJK font installed (scripts/deps.sh
// installs fonts-wqy-microhei), fontconfig finds it, the first face of its
// collection is extracted, and the Chinese theme draws text with it.
func TestChineseThemeUsesTheSystemCJKFont(t *testing.T) {
	f := systemCJKFont(t.Context())
	if f == nil {
		t.Fatalf("no system CJK font found through fontconfig (candidates %q); scripts/deps.sh test installs fonts-wqy-microhei", fontconfigCJKFiles(t.Context()))
	}
	if !hasRunes(f.Content(), "请选择远程智能体") {
		t.Error("the system CJK font lacks common Chinese characters")
	}
	th := newAppTheme(t.Context(), "zh-Hans")
	if got := th.Font(fyne.TextStyle{}); got != f {
		t.Errorf("Chinese text font %s, want the system CJK font", got.Name())
	}
	if got := th.Font(fyne.TextStyle{Bold: true}); got != f {
		t.Errorf("Chinese bold font %s, want the system CJK font", got.Name())
	}
	if got := newAppTheme(t.Context(), "en").Font(fyne.TextStyle{}); got != cjkSubset {
		t.Errorf("English text font %s, want the CJK subset (Latin falls through to Fyne's font)", got.Name())
	}
}

func TestFirstFaceOfCollection(t *testing.T) {
	if _, err := firstFaceOfCollection([]byte("ttcf\x00\x01\x00\x00\x00\x00\x00\x01\xff\xff\xff\xff")); err == nil {
		t.Error("a collection pointing past its end was accepted")
	}
	if _, err := firstFaceOfCollection([]byte("ttcf")); err == nil {
		t.Error("a truncated collection was accepted")
	}
}

// TestCJKSubsetCoversTheCatalogue: every CJK character written anywhere in
// the repository (translations, catalogues, docs) is in the embedded subset,
// so no word of ours is a box on a machine without a CJK font. When this
// fails, run scripts/cjk-font.sh.
func TestCJKSubsetCoversTheCatalogue(t *testing.T) {
	face, err := font.ParseTTF(bytes.NewReader(assets.CJKFont))
	if err != nil {
		t.Fatalf("embedded CJK font: %v", err)
	}
	var missing []rune
	seen := map[rune]bool{}
	err = filepath.WalkDir("..", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".json") || strings.HasSuffix(path, ".md")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, r := range string(bytes.ToValidUTF8(b, nil)) {
			if isCJK(r) && !seen[r] {
				seen[r] = true
				if _, ok := face.NominalGlyph(r); !ok {
					missing = append(missing, r)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 300 {
		t.Fatalf("found only %d CJK characters in the repository; is the walk reading it?", len(seen))
	}
	if len(missing) > 0 {
		t.Errorf("the embedded CJK font lacks %d characters written in the repository (%q); run scripts/cjk-font.sh", len(missing), string(missing))
	}
}

// isCJK matches the ranges scripts/cjk-font.sh keeps.
func isCJK(r rune) bool {
	return r >= 0x2E80 && r <= 0x9FFF || r >= 0xF900 && r <= 0xFAFF || r >= 0xFF00 && r <= 0xFFEF ||
		r >= 0x3000 && r <= 0x303F
}

// TestThemeDrawsEnglishPunctuationLikeFyne: the English window draws Latin text,
// the middle dot and the em dash that the run panel and the status bar put
// between words exactly as Fyne's own theme does. The CJK subset comes first
// in the theme; had it a glyph for "·" or "—" but none for the space after
// it, the painter would keep that space in the subset's run and draw "�".
func TestThemeDrawsEnglishPunctuationLikeFyne(t *testing.T) {
	test.NewTempApp(t)
	const text = "Start · start — succeeded … (2s)"
	for _, style := range []fyne.TextStyle{{}, {Bold: true}} {
		render := func(th fyne.Theme) image.Image {
			fyne.CurrentApp().Settings().SetTheme(th)
			w := test.NewWindow(widget.NewLabelWithStyle(text, fyne.TextAlignLeading, style))
			defer w.Close()
			w.Resize(fyne.NewSize(360, 60))
			return w.Canvas().Capture()
		}
		want := render(theme.DefaultTheme())
		if got := render(newAppTheme(t.Context(), "en")); !sameImage(got, want) {
			t.Errorf("bold=%v: %q renders differently with the app's English theme than with Fyne's", style.Bold, text)
		}
	}
}
