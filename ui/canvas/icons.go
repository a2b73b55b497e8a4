package canvas

import (
	"bytes"
	"fmt"
	"image"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/fyne-io/oksvg"
	"github.com/srwiley/rasterx"
)

// iconPixels is the size node icons are rasterized at once; the canvas
// scales that picture. A canvas.Image made from an SVG resource decodes the
// SVG again on every resize, which made Fit of 500 nodes take ~400 ms.
const iconPixels = 64

// iconCache holds one rasterized icon per kind and foreground colour; it is
// used only on the Fyne thread.
var iconCache = map[string]image.Image{}

// kindPicture returns the kind's icon, as icon gives it, as a picture.
func kindPicture(kind string, icon func(kind string) fyne.Resource) image.Image {
	key := kind + fmt.Sprint(theme.Color(theme.ColorNameForeground))
	if img, ok := iconCache[key]; ok {
		return img
	}
	img := rasterize(icon(kind), iconPixels)
	iconCache[key] = img
	return img
}

// rasterize draws an SVG resource into a px×px picture; a resource that is
// no SVG gives an empty picture and a logged error.
func rasterize(res fyne.Resource, px int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, px, px))
	icon, err := oksvg.ReadIconStream(bytes.NewReader(res.Content()))
	if err != nil {
		fyne.LogError("rasterize icon "+res.Name(), err)
		return img
	}
	icon.SetTarget(0, 0, float64(px), float64(px))
	scanner := rasterx.NewScannerGV(px, px, img, img.Bounds())
	icon.Draw(rasterx.NewDasher(px, px, scanner), 1)
	return img
}
