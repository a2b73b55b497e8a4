package main

import (
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"workrun/ui"
)

func main() {
	go func() {
		time.Sleep(25 * time.Second)
		fyne.Do(func() { fyne.CurrentApp().Quit() })
	}()
	ui.SetupLanguage(os.Getenv("WR_LANG"))
	a := app.NewWithID(ui.AppID)
	w := ui.NewWindow(a, ui.Deps{})
	w.OpenWorkflow("", ui.SampleParallel("http://127.0.0.1:41241"))
	w.FyneWindow().ShowAndRun()
}
