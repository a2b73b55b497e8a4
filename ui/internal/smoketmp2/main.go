package main

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2/lang"
	"github.com/jeandeaual/go-locale"

	"workrun/ui"
)

func main() {
	ui.SetupLanguage(os.Getenv("WR_LANG"))
	l, err := locale.GetLocales()
	fmt.Println(l, err, lang.SystemLocale())
	fmt.Println(os.Getenv("LANGUAGE"), os.Getenv("LANG"), lang.X("run.run", "Run"), ui.KindLabel("remote_agent"))
}
