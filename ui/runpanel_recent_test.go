package ui

// recentTexts returns the run picker's options and the one picked, as
// shown ("" and nil when hidden).
func (p *RunPanel) recentTexts() (picked string, opts []string) {
	if !p.recentBox.Visible() {
		return "", nil
	}
	return p.recent.Selected, p.recent.Options
}

// pickRecent picks the i-th run of the picker, as a person would.
func (p *RunPanel) pickRecent(i int) { p.recent.SetSelectedIndex(i) }
