// Command icons writes the app icon in the sizes of the freedesktop hicolor
// icon theme, for make install:
//
//	go run ./scripts/icons -src assets/icon.png -name app.workrun.desktop -o DIR
//
// writes DIR/NxN/apps/NAME.png for each size up to the source's own (it
// never scales up), and prints each path written.
package main

import (
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"

	"golang.org/x/image/draw"
)

// sizes are the hicolor sizes desktops look for in menus and docks.
var sizes = []int{16, 24, 32, 48, 64, 128, 256, 512}

func main() {
	src := flag.String("src", "assets/icon.png", "the square PNG icon")
	name := flag.String("name", "", "the icon name (the .desktop entry's Icon=)")
	out := flag.String("o", "", "the hicolor directory to write into")
	flag.Parse()
	if *name == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: icons -src PNG -name NAME -o DIR")
		os.Exit(2)
	}
	if err := run(*src, *name, *out); err != nil {
		fmt.Fprintln(os.Stderr, "icons:", err)
		os.Exit(1)
	}
}

func run(src, name, out string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("decode %s: %w", src, err)
	}
	b := img.Bounds()
	if b.Dx() != b.Dy() {
		return fmt.Errorf("%s is %dx%d, want a square icon", src, b.Dx(), b.Dy())
	}
	for _, n := range sizes {
		if n > b.Dx() {
			break
		}
		dst := image.NewNRGBA(image.Rect(0, 0, n, n))
		draw.CatmullRom.Scale(dst, dst.Bounds(), img, b, draw.Src, nil)
		path := filepath.Join(out, fmt.Sprintf("%dx%d", n, n), "apps", name+".png")
		if err := write(path, dst); err != nil {
			return err
		}
		fmt.Println(path)
	}
	return nil
}

func write(path string, img image.Image) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}
