package main

import (
	"context"
	"os"
	"time"

	"fyne.io/fyne/v2"

	"workrun/ui"
)

func main() {
	go func() {
		time.Sleep(20 * time.Second)
		fyne.Do(func() { fyne.CurrentApp().Quit() })
	}()
	d := ui.Deps{Lang: os.Getenv("WR_LANG")}
	if os.Getenv("WR_CHECK") != "" {
		d.CheckAgent = func(context.Context, string, string) (ui.AgentReport, error) { return ui.AgentReport{}, nil }
	}
	if err := ui.Run(d); err != nil {
		panic(err)
	}
}
