//go:build ignore

// gen_icon draws icon.png, the Workrun app icon: three nodes joined by
// edges on a rounded square. Run with `go generate ./assets`.
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

func main() {
	const n = 256
	img := image.NewRGBA(image.Rect(0, 0, n, n))
	bg := color.RGBA{0x1f, 0x5f, 0xbf, 0xff}
	fg := color.RGBA{0xff, 0xff, 0xff, 0xff}
	acc := color.RGBA{0xff, 0xc1, 0x07, 0xff}
	inRounded := func(x, y, r float64) bool {
		cx, cy := math.Max(r, math.Min(n-r, x)), math.Max(r, math.Min(n-r, y))
		return math.Hypot(x-cx, y-cy) <= r
	}
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			if inRounded(float64(x)+.5, float64(y)+.5, 48) {
				img.Set(x, y, bg)
			}
		}
	}
	line := func(x0, y0, x1, y1, w float64, c color.Color) {
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				px, py := float64(x)+.5, float64(y)+.5
				dx, dy := x1-x0, y1-y0
				t := math.Max(0, math.Min(1, ((px-x0)*dx+(py-y0)*dy)/(dx*dx+dy*dy)))
				if math.Hypot(x0+t*dx-px, y0+t*dy-py) <= w/2 {
					img.Set(x, y, c)
				}
			}
		}
	}
	disc := func(cx, cy, r float64, c color.Color) {
		for y := 0; y < n; y++ {
			for x := 0; x < n; x++ {
				if math.Hypot(float64(x)+.5-cx, float64(y)+.5-cy) <= r {
					img.Set(x, y, c)
				}
			}
		}
	}
	line(64, 128, 188, 72, 14, fg)
	line(64, 128, 188, 184, 14, fg)
	disc(64, 128, 30, fg)
	disc(188, 72, 26, fg)
	disc(188, 184, 26, acc)
	f, err := os.Create("icon.png")
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
}
