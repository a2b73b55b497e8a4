package cli

import (
	"fmt"
	"io"
	"strings"

	"workrun/workrun"
)

// printQuestion prints what a remote asks node of run, and how to answer
// it, in lang (`workrun show`, and the end of a run interrupted by it).
// Everything the remote wrote is escaped (termText).
func printQuestion(w io.Writer, lang, runID, node string, q workrun.Question) {
	t := func(id answerMsg, args ...any) string { return answerTexts.In(lang, id, args...) }
	from := q.From
	if from == "" {
		from = t(msgRemote)
	}
	fmt.Fprintf(w, "  %s\n", t(msgWaitingAsks, termLine(node), termLine(from), q.Round))
	if q.Message != "" {
		fmt.Fprintf(w, "    %s\n", termText(q.Message, "    "))
	}
	for _, p := range q.Parts {
		switch p.Kind {
		case "file":
			fmt.Fprintf(w, "    [%s] %s %s %s\n", t(msgPartFile), termLine(p.Name), termLine(p.MediaType), termLine(p.URL))
		case "data":
			fmt.Fprintf(w, "    [%s] %s\n", t(msgPartData), oneLine(string(p.Data), 300))
		default:
			fmt.Fprintf(w, "    %s\n", termText(p.Text, "    "))
		}
	}
	id, n := termLine(runID), termLine(node)
	switch q.Kind {
	case workrun.QuestionSignIn:
		fmt.Fprintf(w, "    %s %s\n", t(msgSignInAt), termLine(q.URL))
		fmt.Fprintf(w, "  %s workrun answer %s %s --done\n", t(msgThen), id, n)
	case workrun.QuestionForm:
		form, err := workrun.ParseForm(q.Schema)
		if err != nil {
			fmt.Fprintf(w, "    %s\n", termLine(strings.Join(problemLines(err, lang), "; ")))
			fmt.Fprintf(w, "  %s workrun answer %s %s --decline\n", t(msgAnswerWith), id, n)
			return
		}
		fmt.Fprintf(w, "    %s\n", t(msgForm))
		for _, fd := range form.Fields {
			fmt.Fprintf(w, "      %s\n", termLine(fieldLine(fd, lang)))
		}
		fmt.Fprintf(w, "  %s workrun answer %s %s --field NAME=VALUE … (%s --values '{…}')\n", t(msgAnswerWith), id, n, t(msgOr))
		fmt.Fprintf(w, "  %s workrun answer %s %s --decline | --cancel-request\n", t(msgOr), id, n)
	default:
		fmt.Fprintf(w, "  %s workrun answer %s %s TEXT\n", t(msgAnswerWith), id, n)
	}
}

// fieldLine describes one form field: name, title, kind, limits, options,
// default, required, secret.
func fieldLine(fd workrun.FormField, lang string) string {
	t := func(id answerMsg, args ...any) string { return answerTexts.In(lang, id, args...) }
	var b strings.Builder
	b.WriteString(fd.Name)
	if fd.Title != "" && fd.Title != fd.Name {
		fmt.Fprintf(&b, " (%s)", fd.Title)
	}
	var about []string
	switch fd.Kind {
	case workrun.FormNumber:
		about = append(about, t(msgKindNumber))
	case workrun.FormInteger:
		about = append(about, t(msgKindInteger))
	case workrun.FormBoolean:
		about = append(about, t(msgKindBoolean))
	case workrun.FormChoice, workrun.FormChoices:
		opts := make([]string, len(fd.Options))
		for i, o := range fd.Options {
			opts[i] = o.Value
			if o.Title != "" && o.Title != o.Value {
				opts[i] += " (" + o.Title + ")"
			}
		}
		id := msgKindChoice
		if fd.Kind == workrun.FormChoices {
			id = msgKindChoices
		}
		about = append(about, t(id, strings.Join(opts, ", ")))
	default:
		about = append(about, t(msgKindText))
		if fd.Format != "" && fd.Format != "password" {
			about[0] += " (" + fd.Format + ")"
		}
	}
	if fd.Minimum != nil || fd.Maximum != nil {
		lo, hi := "", ""
		if fd.Minimum != nil {
			lo = workrun.FormatValue(*fd.Minimum)
		}
		if fd.Maximum != nil {
			hi = workrun.FormatValue(*fd.Maximum)
		}
		about = append(about, lo+"…"+hi)
	}
	if fd.Required {
		about = append(about, t(msgRequired))
	}
	if fd.Secret {
		about = append(about, t(msgSecret))
	}
	if fd.Default != nil {
		about = append(about, t(msgDefault, workrun.FormatValue(defaultValue(fd.Default))))
	}
	fmt.Fprintf(&b, " — %s", strings.Join(about, ", "))
	if fd.Description != "" {
		fmt.Fprintf(&b, ": %s", fd.Description)
	}
	return b.String()
}

func defaultValue(v any) any {
	if ss, ok := v.([]string); ok {
		return strings.Join(ss, ", ")
	}
	return v
}

type answerMsg string

const (
	msgRemote        answerMsg = "cli.question_remote"
	msgWaitingAsks   answerMsg = "cli.question_waiting_asks"
	msgPartFile      answerMsg = "cli.question_part_file"
	msgPartData      answerMsg = "cli.question_part_data"
	msgSignInAt      answerMsg = "cli.question_sign_in_at"
	msgThen          answerMsg = "cli.question_then"
	msgForm          answerMsg = "cli.question_form"
	msgAnswerWith    answerMsg = "cli.question_answer_with"
	msgOr            answerMsg = "cli.question_or"
	msgKindText      answerMsg = "cli.question_kind_text"
	msgKindNumber    answerMsg = "cli.question_kind_number"
	msgKindInteger   answerMsg = "cli.question_kind_integer"
	msgKindBoolean   answerMsg = "cli.question_kind_boolean"
	msgKindChoice    answerMsg = "cli.question_kind_choice"
	msgKindChoices   answerMsg = "cli.question_kind_choices"
	msgRequired      answerMsg = "cli.question_required"
	msgSecret        answerMsg = "cli.question_secret"
	msgDefault       answerMsg = "cli.question_default"
	msgAnswerNotSent answerMsg = "cli.answer_not_sent"
)

var answerTexts = workrun.NewCatalog(map[answerMsg][2]string{
	msgRemote:        {"the remote", "远程方"},
	msgWaitingAsks:   {"Waiting for you: node %s — %s asks (round %d):", "等待你回答：节点 %s — %s 提问（第 %d 轮）："},
	msgPartFile:      {"file", "文件"},
	msgPartData:      {"data", "数据"},
	msgSignInAt:      {"Sign in at (Workrun does not open it):", "请在此登录（Workrun 不会自动打开）："},
	msgThen:          {"then:", "然后："},
	msgForm:          {"Form:", "表单："},
	msgAnswerWith:    {"answer with:", "回答方式："},
	msgOr:            {"or", "或"},
	msgKindText:      {"text", "文本"},
	msgKindNumber:    {"number", "数字"},
	msgKindInteger:   {"whole number", "整数"},
	msgKindBoolean:   {"yes or no", "是或否"},
	msgKindChoice:    {"one of: %s", "以下之一：%s"},
	msgKindChoices:   {"any of: %s", "以下任意几项：%s"},
	msgRequired:      {"required", "必填"},
	msgSecret:        {"secret: never saved", "保密：不会保存"},
	msgDefault:       {"default %s", "默认 %s"},
	msgAnswerNotSent: {"the answer does not fit the question; nothing was sent:", "答案不符合问题要求，未发送任何内容："},
})
