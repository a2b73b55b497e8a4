package ui

import (
	"net/url"
	"strings"

	"workrun/workrun"
)

// A remote's question is shown and answered in the run panel
// (ui/runpanel/question.go). The window says it too: in its title and the
// canvas badge ("waiting for you") and in the status bar (questionLine);
// those words are here, and the panel is given them (runPanelWording).

type qMsgID string

const (
	msgQRemote   qMsgID = "ui.question_remote"
	msgQAsksLine qMsgID = "ui.question_asks_line"
	msgQStatus   qMsgID = "ui.status_waiting"
)

var questionTexts = workrun.NewCatalog(map[qMsgID][2]string{
	msgQRemote:   {"The remote", "远程方"},
	msgQAsksLine: {"waiting for you: %s asks: %s", "等待你回答：%s 提问：%s"},
	msgQStatus:   {"waiting for you", "等待你回答"},
})

func qText(loc workrun.Localizer, id qMsgID, args ...any) string {
	return questionTexts.In(loc.Messages(), id, args...)
}

// questionLine says who asks what in one line (status bar).
func questionLine(loc workrun.Localizer, q workrun.Question) string {
	from := q.From
	if from == "" {
		from = qText(loc, msgQRemote)
	}
	msg := strings.Join(strings.Fields(q.Message), " ")
	if r := []rune(msg); len(r) > 80 {
		msg = string(r[:79]) + "…"
	}
	return qText(loc, msgQAsksLine, from, msg)
}

// openLink opens a sign-in link in the browser, when the person asks.
func (w *Window) openLink(u *url.URL) {
	if w.openURL == nil {
		return
	}
	if err := w.openURL(u); err != nil {
		w.showError(err)
	}
}
